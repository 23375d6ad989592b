// `declare -f [NAME…]` and `type NAME` print a function as bash regenerates it from its parsed form (print_cmd.c):
// `NAME () ` and `{ ` on lines of their own, one command a line indented by four spaces a level, `;` after each
// command but the last of a `{ }` body (and after every command of an if/while/for/case body), `if COND; then`,
// `elif` as an `if` nested in `else`, `while COND; do`, `for X in WORDS;` with `do`/`done` on lines of their own,
// `case WORD in ` with each pattern list and its `;;` on lines of their own, a nested function as `function NAME ()`,
// redirections in bash's spelling (`> f`, `2>&1`, `1>&2`, `0<> f`, the default descriptor dropped), here-document
// bodies after their line. Words are printed as written. just-bash printed `# function body` for `declare -f`,
// nothing for `declare -f NAME`, and `...` for a compound command in `type NAME`.

// The printer, injected into the bundle as it is written here (`__jbFnText(null, null, command)` prints one
// command alone): `we` (a word as written), `Ud` (an assignment),
// `Gd` (a here-document body), `pe` (an arithmetic expression), `yn` (a [[ ]] expression), `El` (any command) are the bundle's own
// serializer functions.
function __jbFnText(name, fn, command) {
  const ind = (l) => '    '.repeat(l);
  // A word as written: unquoted text as it stands (the serializer would escape it for re-parsing), a positional
  // parameter `$1` bare unless a digit follows.
  const w = (word) =>
    word.parts
      .map((p, i) => {
        if (p.type === 'Literal') return p.value;
        // The engine hands the interpreter scripts rewritten to text, where a closing `]` comes back escaped.
        if (p.type === 'Escaped' && p.value === ']') return ']';
        const next = word.parts[i + 1];
        if (p.type === 'ParameterExpansion' && !p.operation && /^[0-9]$/.test(p.parameter) && !(next && next.type === 'Literal' && /^[0-9]/.test(next.value))) return `$${p.parameter}`;
        if (p.type === 'DoubleQuoted') return `"${w({ parts: p.parts }).replace(/^"|"$/g, '')}"`;
        return we({ parts: [p] });
      })
      .join('');
  // A [[ ]] expression with its words as written.
  const cond = (e) => {
    switch (e.type) {
      case 'CondBinary': return `${w(e.left)} ${e.operator} ${w(e.right)}`;
      case 'CondUnary': return `${e.operator} ${w(e.operand)}`;
      case 'CondNot': return `! ${cond(e.operand)}`;
      case 'CondAnd': return `${cond(e.left)} && ${cond(e.right)}`;
      case 'CondOr': return `${cond(e.left)} || ${cond(e.right)}`;
      case 'CondGroup': return `( ${cond(e.expression)} )`;
      case 'CondWord': return w(e.word);
      default: return yn(e);
    }
  };
  const statement = (pipelines, operators, background) => ({ type: 'Statement', pipelines, operators, background });
  // A statement's `;`-joined parts, each a statement of its own.
  const split = (s) => {
    const out = [];
    let cur = statement([s.pipelines[0]], [], false);
    s.operators.forEach((op, i) => {
      if (op === ';') {
        out.push(cur);
        cur = statement([s.pipelines[i + 1]], [], false);
      } else {
        cur.operators.push(op);
        cur.pipelines.push(s.pipelines[i + 1]);
      }
    });
    cur.background = s.background;
    out.push(cur);
    return out;
  };
  const flat = (stmts) => stmts.flatMap(split);
  const redir = (r, hd) => {
    const op = r.operator;
    if (op === '<<' || op === '<<-') {
      const h = r.target;
      hd.push(`${Gd(h.content, h.quoted)}${h.delimiter}\n`);
      return `${r.fd !== null && r.fd !== 0 ? r.fd : ''}${op}${h.quoted ? `'${h.delimiter}'` : h.delimiter}`;
    }
    const v = r.fdVariable ? `{${r.fdVariable}}` : undefined;
    const t = w(r.target);
    if (op === '>&' || op === '<&') return `${v ?? r.fd ?? (op === '>&' ? 1 : 0)}${op}${t}`;
    if (op === '&>' || op === '&>>') return `${op} ${t}`;
    if (op === '<>') return `${v ?? r.fd ?? 0}${op} ${t}`;
    const dflt = op === '<' || op === '<<<' ? 0 : 1;
    return `${v ?? (r.fd !== null && r.fd !== dflt ? r.fd : '')}${op} ${t}`;
  };
  const redirs = (rs, hd) => (rs && rs.length ? ` ${rs.map((r) => redir(r, hd)).join(' ')}` : '');
  const inline = (stmts, l, hd) => flat(stmts).map((s) => stmtText(s, l, hd)).join('; ');
  // Statements one a line at indent l: `;` after each (`body`) or between them (`group`); after a here-document
  // bash writes the next commands without `;`.
  const list = (stmts, l, mode) => {
    const all = flat(stmts);
    let out = '';
    let afterHd = false;
    let sameLine = false;
    all.forEach((s, i) => {
      const hd = [];
      const last = i === all.length - 1;
      if (!sameLine) out += ind(l);
      out += stmtText(s, l, hd);
      sameLine = false;
      if (hd.length) {
        out += `\n${hd.join('')}`;
        afterHd = true;
        if (last && mode === 'group') out = out.replace(/\n$/, '');
        else if (!last) out += '\n';
        return;
      }
      if (s.background) {
        out += ' &';
        if (!last) {
          out += ' ';
          sameLine = true;
        } else if (mode === 'body') out += '\n';
        return;
      }
      if (mode === 'body') out += afterHd ? '\n' : ';\n';
      else if (!last) out += afterHd ? '\n' : ';\n';
    });
    return out;
  };
  const ifText = (clauses, elseBody, l) => {
    const [first, ...rest] = clauses;
    let out = `if ${inline(first.condition, l, [])}; then\n${list(first.body, l + 1, 'body')}`;
    const other = rest.length ? [statement([{ type: 'Pipeline', commands: [{ type: 'If', clauses: rest, elseBody, redirections: [] }], negated: false }], [], false)] : elseBody;
    if (other && other.length) out += `${ind(l)}else\n${list(other, l + 1, 'body')}`;
    return `${out}${ind(l)}fi`;
  };
  const loop = (head, body, l) => `${head};\n${ind(l)}do\n${list(body, l + 1, 'body')}${ind(l)}done`;
  const cmd = (c, l, hd) => {
    switch (c.type) {
      case 'SimpleCommand': {
        const words = [...c.assignments.map(Ud), ...(c.name ? [w(c.name)] : []), ...c.args.map(w)];
        return `${words.join(' ')}${redirs(c.redirections, hd)}`.replace(/^ /, '');
      }
      case 'If':
        return ifText(c.clauses, c.elseBody, l) + redirs(c.redirections, hd);
      case 'While':
      case 'Until':
        return `${c.type === 'While' ? 'while' : 'until'} ${inline(c.condition, l, hd)}; do\n${list(c.body, l + 1, 'body')}${ind(l)}done${redirs(c.redirections, hd)}`;
      case 'For':
        return loop(`${c.select ? 'select' : 'for'} ${c.variable} in ${c.words === null ? '"$@"' : c.words.map(w).join(' ')}`, c.body, l) + redirs(c.redirections, hd);
      case 'CStyleFor': {
        const part = (x) => (x ? (x.originalText ?? pe(x.expression)).replace(/^\s+/, '') : '');
        return loop(`for ((${part(c.init)}; ${part(c.condition)}; ${part(c.update)}))`, c.body, l).replace(/\)\);\n/, '))\n') + redirs(c.redirections, hd);
      }
      case 'Case': {
        let out = `case ${w(c.word)} in \n`;
        for (const item of c.items) {
          const body = item.body.length ? `${list(item.body, l + 2, 'group')}\n` : '\n';
          out += `${ind(l + 1)}${item.patterns.map(w).join(' | ')})\n${body}${ind(l + 1)}${item.terminator}\n`;
        }
        return `${out}${ind(l)}esac${redirs(c.redirections, hd)}`;
      }
      case 'Subshell':
        return `( ${flat(c.body).map((s) => stmtText(s, l, hd)).join(`;\n${ind(l)}`)} )${redirs(c.redirections, hd)}`;
      case 'Group':
        return `{ \n${list(c.body, l + 1, 'group')}\n${ind(l)}}${redirs(c.redirections, hd)}`;
      case 'ArithmeticCommand':
        // bash keeps the expression's text as written between the parentheses.
        return `${c.expression.originalText != null ? `((${c.expression.originalText}))` : `(( ${pe(c.expression.expression)} ))`}${redirs(c.redirections, hd)}`;
      case 'ConditionalCommand':
        return `[[ ${cond(c.expression)} ]]${redirs(c.redirections, hd)}`;
      case 'FunctionDef':
        return `function ${fnText(c.name, c, l)}`;
      default:
        return El(c);
    }
  };
  const pipeline = (p, l, hd) =>
    `${p.timed ? 'time ' : ''}${p.negated ? '! ' : ''}${p.commands.map((c, i) => cmd(c, l, hd) + (p.pipeStderr && p.pipeStderr[i] ? ' 2>&1' : '')).join(' | ')}`;
  const stmtText = (s, l, hd) => s.pipelines.map((p, i) => (i ? ` ${s.operators[i - 1]} ` : '') + pipeline(p, l, hd)).join('');
  const fnText = (n, f, l) => {
    const body = f.body.type === 'Group' ? f.body.body : [statement([{ type: 'Pipeline', commands: [f.body], negated: false }], [], false)];
    const hd = [];
    const tail = redirs(f.body.type === 'Group' ? f.body.redirections : [], hd) + redirs(f.redirections, hd);
    return `${n} () \n${ind(l)}{ \n${list(body, l + 1, 'group')}\n${ind(l)}}${tail}`;
  };
  // One command alone, on one line (`$BASH_COMMAND`), when `command` is given.
  if (command) return cmd(command, 0, []);
  return `${fnText(name, fn, 0)}\n`;
}

export default {
  title: 'declare -f and type print a function as bash does',
  upstream: 'src/interpreter/builtins/declare.ts (-f) and type.ts (formatFunction): print the function from its AST in bash\'s print_cmd.c layout instead of a placeholder',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function sf(e,t){let n;return t.body.type==="Group"?n=t.body.body.map(s=>Ar(s)).join("; "):n=Ar(t.body),`${e} is a function\n${e} () \n{ \n    ${n}\n}\n`}',
      replace: `${__jbFnText.toString()}function sf(e,t){return\`\${e} is a function\n\${__jbFnText(e,t)}\`}`,
    },
    {
      find: 'for(let V of R)$+=`${V} ()\n{\n    # function body\n}\n`;return ee($)}let P=!0;for(let $ of g)e.state.functions.has($)||(P=!1);return L("","",P?0:1)}',
      replace: 'for(let V of R)$+=__jbFnText(V,e.state.functions.get(V));return ee($)}let P=!0,O="";for(let $ of g)e.state.functions.has($)?O+=__jbFnText($,e.state.functions.get($)):P=!1;return L(O,"",P?0:1)}',
    },
  ],
};
