/**
 * The awk language read into a syntax tree, as POSIX awk (and mawk, the sprite's awk) reads it: tokens with awk's
 * rules for `/` (a regex where an operand may start), newlines (ends of statements, except after `{ , && || do
 * else`), `\`-newline; expressions by precedence (`?:`, `||`, `&&`, `in`, `~`, comparisons, concatenation, `+ -`,
 * `* / %`, unary, `^`, `++ --`, `$`), `cmd | getline`, `getline < file`, `print > file`; statements and rules.
 * Errors are mawk's `syntax error at or near X`.
 * @see https://pubs.opengroup.org/onlinepubs/9699919799/utilities/awk.html#tag_20_06_13
 */
import { rmEscape } from './awk-text.ts';
import { awkRegExp } from './grep-regex.ts';

export type Node =
  | { k: 'num'; v: number }
  | { k: 'str'; v: string }
  | { k: 'regex'; v: string }
  | { k: 'var'; name: string }
  | { k: 'field'; e: Node }
  | { k: 'index'; name: string; subs: Node[] }
  | { k: 'assign'; op: string; target: Node; e: Node }
  | { k: 'cond'; c: Node; a: Node; b: Node }
  | { k: 'and' | 'or'; a: Node; b: Node }
  | { k: 'in'; subs: Node[]; name: string }
  | { k: 'match'; neg: boolean; a: Node; re: Node }
  | { k: 'bin'; op: string; a: Node; b: Node }
  | { k: 'cat'; a: Node; b: Node }
  | { k: 'unary'; op: string; e: Node }
  | { k: 'incr'; op: '++' | '--'; prefix: boolean; target: Node }
  | { k: 'call'; name: string; args: Node[] }
  | { k: 'builtin'; name: string; args: Node[] }
  | { k: 'getline'; target?: Node; file?: Node; cmd?: Node }
  | { k: 'group'; e: Node };

export type Stmt =
  | { k: 'expr'; e: Node }
  | { k: 'print' | 'printf'; args: Node[]; redir?: { op: string; to: Node } }
  | { k: 'if'; c: Node; then: Stmt; else?: Stmt }
  | { k: 'while'; c: Node; body: Stmt }
  | { k: 'do'; body: Stmt; c: Node }
  | { k: 'for'; init?: Stmt; c?: Node; step?: Stmt; body: Stmt }
  | { k: 'forin'; v: Node; name: string; body: Stmt }
  | { k: 'block'; body: Stmt[] }
  | { k: 'next' | 'nextfile' | 'break' | 'continue' }
  | { k: 'exit' | 'return'; e?: Node }
  | { k: 'delete'; name: string; subs?: Node[] }
  | { k: 'getline'; e: Node };

export interface Rule {
  begin?: boolean;
  end?: boolean;
  pattern?: Node;
  /** The second pattern of a range `p1, p2`. */
  until?: Node;
  action?: Stmt[];
}

export interface Program {
  rules: Rule[];
  functions: Map<string, { params: string[]; body: Stmt[] }>;
}

export class AwkSyntaxError extends Error {}

type Tok = { t: string; v: string; line: number };

const BUILTINS = new Set(['length', 'substr', 'index', 'split', 'sub', 'gsub', 'match', 'sprintf', 'sin', 'cos', 'atan2', 'exp', 'log', 'sqrt', 'int', 'rand', 'srand', 'tolower', 'toupper', 'system', 'close', 'fflush', 'strftime', 'systime', 'mktime']);
const KEYWORDS = new Set(['BEGIN', 'END', 'function', 'func', 'if', 'else', 'while', 'for', 'do', 'break', 'continue', 'next', 'nextfile', 'exit', 'return', 'delete', 'in', 'getline', 'print', 'printf']);
const PUNCT = ['&&', '||', '==', '<=', '>=', '!=', '++', '--', '+=', '-=', '*=', '/=', '%=', '^=', '>>', '!~', '{', '}', '(', ')', '[', ']', ';', ',', '+', '-', '*', '/', '%', '^', '!', '>', '<', '|', '?', ':', '~', '$', '='];

/** Whether a `/` after token `prev` divides (an operand just ended) rather than opens a regex. */
const divides = (prev: Tok | undefined) => !!prev && (['name', 'num', 'str', 'builtin', 'ere'].includes(prev.t) || [')', ']', '$', '++', '--'].includes(prev.t));

function lex(src: string): Tok[] {
  const toks: Tok[] = [];
  let line = 1;
  let i = 0;
  const push = (t: string, v = t) => toks.push({ t, v, line });
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
      line++;
    } else if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (c === '\n') {
      push('nl');
      line++;
      i++;
    } else if (c === '#') while (i < src.length && src[i] !== '\n') i++;
    else if (c === '"') {
      // The text as written (a `\`-newline taken out), its escapes replaced once it is whole, as mawk's scanner does.
      let raw = '';
      for (i++; i < src.length && src[i] !== '"'; i++) {
        if (src[i] === '\n') throw new AwkSyntaxError(`line ${line}: runaway string constant "${raw.slice(0, 10)} ...`);
        if (src[i] === '\\' && src[i + 1] === '\n') {
          i++;
          line++;
        } else if (src[i] === '\\' && i + 1 < src.length) raw += src[i]! + src[++i]!;
        else raw += src[i];
      }
      // mawk shows the first ten characters of the text as written when a newline or the end comes before the quote.
      if (i >= src.length) throw new AwkSyntaxError(`line ${line}: runaway string constant "${raw.slice(0, 10)} ...`);
      i++;
      push('str', rmEscape(raw));
    } else if (c === '/' && !divides(toks[toks.length - 1])) {
      let s = '';
      let inClass = false;
      for (i++; i < src.length && (src[i] !== '/' || inClass); i++) {
        if (src[i] === '\n') throw new AwkSyntaxError(`line ${line}: runaway regular expression /${s} ...`);
        if (src[i] === '\\' && src[i + 1] === '/') {
          s += '/';
          i++;
        } else if (src[i] === '\\' && i + 1 < src.length) s += src[i]! + src[++i]!;
        else {
          if (src[i] === '[' && !inClass) inClass = true;
          else if (src[i] === ']' && inClass && s[s.length - 1] !== '[' && !s.endsWith('[^')) inClass = false;
          s += src[i];
        }
      }
      i++;
      push('ere', s);
    } else if (/[0-9.]/.test(c) && /^(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.test(src.slice(i))) {
      const m = /^(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(src.slice(i))!;
      push('num', m[0]);
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const w = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))![0];
      i += w.length;
      if (KEYWORDS.has(w)) push(w === 'func' ? 'function' : w);
      else if (BUILTINS.has(w)) push('builtin', w);
      else push(src[i] === '(' ? 'funcname' : 'name', w);
    } else {
      const p = PUNCT.find((x) => src.startsWith(x, i));
      if (!p) throw new AwkSyntaxError(`line ${line}: syntax error at or near ${c}`);
      push(p);
      i += p.length;
    }
  }
  push('eof', 'end of file');
  return toks;
}

/** Parses awk program text (bytes as a latin1 string). Throws {@link AwkSyntaxError} with mawk's wording. */
export function parseAwk(src: string): Program {
  const toks = lex(src);
  let pos = 0;
  const program: Program = { rules: [], functions: new Map() };
  /** The user functions called, in order: one never defined is an error once the whole text is read. */
  const called: string[] = [];
  const peek = (o = 0) => toks[pos + o]!;
  const at = (t: string) => peek().t === t;
  const fail = (): never => {
    const tk = peek();
    // mawk counts the end of the text as one line further.
    if (tk.t === 'eof') throw new AwkSyntaxError(`line ${tk.line + 1}: ${braces() > 0 ? 'missing } near end of file' : 'syntax error at or near end of file'}`);
    throw new AwkSyntaxError(`line ${tk.line}: syntax error at or near ${tk.t === 'nl' ? 'end of line' : tk.t === 'str' ? `"${tk.v}"` : tk.v}`);
  };
  const eat = (t: string) => (at(t) ? toks[pos++]! : fail());
  /** In BEGIN, END or a function: where mawk refuses `next` and `nextfile` (no input record to move on from). */
  let noRecord = false;
  /** How many `{` are open where parsing stopped (for mawk's `missing }`). */
  const braces = () => toks.slice(0, pos).reduce((n, t) => n + (t.t === '{' ? 1 : t.t === '}' ? -1 : 0), 0);
  const skipNl = () => {
    while (at('nl')) pos++;
  };
  const opt = (t: string) => (at(t) ? (pos++, true) : false);
  const endStmt = () => {
    if (at(';') || at('nl')) {
      pos++;
      skipNl();
    } else if (!at('}') && !at('eof')) fail();
  };

  let noIn = false;
  let noGt = false;

  const primary = (): Node => {
    const tk = peek();
    switch (tk.t) {
      case 'num': pos++; return { k: 'num', v: Number(tk.v) };
      case 'str': pos++; return { k: 'str', v: tk.v };
      case 'ere': {
        pos++;
        // mawk compiles a regex literal with the program: a bad one fails before any input is read.
        const re = awkRegExp(tk.v);
        if (!(re instanceof RegExp)) throw new AwkSyntaxError(`line ${tk.line}: regular expression compile failed (${re.error})\n${tk.v}`);
        return { k: 'regex', v: tk.v };
      }
      case '$': { pos++; return { k: 'field', e: incdec() }; }
      case '(': {
        pos++;
        const saved = [noIn, noGt];
        noIn = false;
        noGt = false;
        const first = expr();
        if (at(',')) {
          const subs = [first];
          while (opt(',')) (skipNl(), subs.push(expr()));
          eat(')');
          [noIn, noGt] = saved;
          if (!at('in')) fail();
          pos++;
          return { k: 'in', subs, name: eat('name').v };
        }
        eat(')');
        [noIn, noGt] = saved;
        return { k: 'group', e: first };
      }
      case '-': case '+': case '!': { pos++; return { k: 'unary', op: tk.t, e: unaryOperand() }; }
      case '++': case '--': { pos++; return { k: 'incr', op: tk.t as '++' | '--', prefix: true, target: lvalue(primary()) }; }
      case 'funcname': {
        pos++;
        eat('(');
        const args = at(')') ? [] : list(')');
        eat(')');
        called.push(tk.v);
        return { k: 'call', name: tk.v, args };
      }
      case 'builtin': {
        pos++;
        if (!at('(')) {
          if (tk.v === 'length') return { k: 'builtin', name: 'length', args: [] };
          fail();
        }
        pos++;
        const saved = [noIn, noGt];
        noIn = false;
        noGt = false;
        const args = at(')') ? [] : list(')');
        [noIn, noGt] = saved;
        eat(')');
        return { k: 'builtin', name: tk.v, args };
      }
      case 'getline': {
        pos++;
        const target = startsLvalue() ? lvalue(incdec()) : undefined;
        if (at('<')) {
          pos++;
          return { k: 'getline', target, file: incdec() };
        }
        return { k: 'getline', target };
      }
      case 'name': {
        pos++;
        if (at('[')) {
          pos++;
          const subs = list(']');
          eat(']');
          return { k: 'index', name: tk.v, subs };
        }
        return { k: 'var', name: tk.v };
      }
      default:
        return fail();
    }
  };
  const startsLvalue = () => at('$') || at('name');
  const lvalue = (n: Node): Node => (n.k === 'var' || n.k === 'field' || n.k === 'index' ? n : fail());
  const list = (close: string): Node[] => {
    const out = [expr()];
    while (opt(',')) {
      skipNl();
      out.push(expr());
    }
    if (!at(close)) fail();
    return out;
  };
  const incdec = (): Node => {
    const n = primary();
    if ((at('++') || at('--')) && (n.k === 'var' || n.k === 'field' || n.k === 'index')) return { k: 'incr', op: toks[pos++]!.t as '++' | '--', prefix: false, target: n };
    return n;
  };
  const power = (): Node => {
    const base = incdec();
    if (at('^')) {
      pos++;
      return { k: 'bin', op: '^', a: base, b: unaryOperand() };
    }
    return base;
  };
  /** The operand of a unary operator or of `^`'s right side: itself possibly unary, binding tighter than `^`'s left. */
  const unaryOperand = (): Node => (at('-') || at('+') || at('!') ? (pos++, { k: 'unary', op: toks[pos - 1]!.t, e: unaryOperand() }) : power());
  const mul = (): Node => {
    let a = unaryOperand();
    while (at('*') || at('/') || at('%')) a = { k: 'bin', op: toks[pos++]!.t, a, b: unaryOperand() };
    return a;
  };
  const add = (): Node => {
    let a = mul();
    while (at('+') || at('-')) a = { k: 'bin', op: toks[pos++]!.t, a, b: mul() };
    return a;
  };
  /** Whether the next token starts an operand to concatenate (`-` and `!` there are binary, as awk reads them). */
  const startsConcat = () => ['num', 'str', 'ere', 'name', 'funcname', 'builtin', '$', '(', '++', '--'].includes(peek().t);
  const concat = (): Node => {
    let a = add();
    while (startsConcat()) a = { k: 'cat', a, b: add() };
    return a;
  };
  const compare = (): Node => {
    let a = concat();
    for (;;) {
      if (at('|') && peek(1).t === 'getline') {
        pos += 2;
        const target = startsLvalue() ? lvalue(incdec()) : undefined;
        a = { k: 'getline', cmd: a, target };
        continue;
      }
      const t = peek().t;
      if (['<', '<=', '==', '!=', '>=', '>'].includes(t) && !(t === '>' && noGt)) {
        pos++;
        a = { k: 'bin', op: t, a, b: concat() };
        continue;
      }
      return a;
    }
  };
  const matchOp = (): Node => {
    let a = compare();
    while (at('~') || at('!~')) {
      const neg = toks[pos++]!.t === '!~';
      a = { k: 'match', neg, a, re: compare() };
    }
    return a;
  };
  const inOp = (): Node => {
    let a = matchOp();
    while (at('in') && !noIn) {
      pos++;
      a = { k: 'in', subs: [a], name: eat('name').v };
    }
    return a;
  };
  const andOp = (): Node => {
    let a = inOp();
    while (at('&&')) {
      pos++;
      skipNl();
      a = { k: 'and', a, b: inOp() };
    }
    return a;
  };
  const orOp = (): Node => {
    let a = andOp();
    while (at('||')) {
      pos++;
      skipNl();
      a = { k: 'or', a, b: andOp() };
    }
    return a;
  };
  // Each branch of `c ? a : b` is a whole expression, an assignment too (POSIX awk's grammar: `expr '?' expr ':'
  // expr`): `c ? r = "x" : r = "y"` assigns in the branch taken, `x = 0 ? 1 : y = 2` sets both to 2.
  const ternary = (): Node => {
    const c = orOp();
    if (!at('?')) return c;
    pos++;
    skipNl();
    const a = expr();
    skipNl();
    eat(':');
    skipNl();
    return { k: 'cond', c, a, b: expr() };
  };
  const expr = (): Node => {
    const left = ternary();
    const t = peek().t;
    if (['=', '+=', '-=', '*=', '/=', '%=', '^='].includes(t) && (left.k === 'var' || left.k === 'field' || left.k === 'index')) {
      pos++;
      skipNl();
      return { k: 'assign', op: t, target: left, e: expr() };
    }
    return left;
  };

  const simple = (): Stmt => {
    if (at('print') || at('printf')) {
      const kind = toks[pos++]!.t as 'print' | 'printf';
      let args: Node[] = [];
      noGt = true;
      if (at('(')) {
        // `print (a, b) > f` and `print (a) b`: a parenthesised list, or the start of an expression.
        const save = pos;
        pos++;
        noGt = false;
        const inner = at(')') ? [] : list(')');
        eat(')');
        noGt = true;
        if (at(';') || at('nl') || at('}') || at('>') || at('>>') || at('|') || at('eof')) args = inner;
        else {
          pos = save;
          args = list2();
        }
      } else if (!(at(';') || at('nl') || at('}') || at('>') || at('>>') || at('|') || at('eof'))) args = list2();
      noGt = false;
      let redir: { op: string; to: Node } | undefined;
      if (at('>') || at('>>') || at('|')) {
        const op = toks[pos++]!.t;
        redir = { op, to: concat() };
      }
      return { k: kind, args, redir };
    }
    if (noRecord && (at('next') || at('nextfile'))) throw new AwkSyntaxError(`line ${peek().line}: improper use of ${peek().t}`);
    if (at('next') || at('nextfile') || at('break') || at('continue')) return { k: toks[pos++]!.t as 'next' };
    if (at('exit') || at('return')) {
      const kind = toks[pos++]!.t as 'exit' | 'return';
      return at(';') || at('nl') || at('}') || at('eof') ? { k: kind } : { k: kind, e: expr() };
    }
    if (at('delete')) {
      pos++;
      const name = eat('name').v;
      if (!at('[')) return { k: 'delete', name };
      pos++;
      const subs = list(']');
      eat(']');
      return { k: 'delete', name, subs };
    }
    return { k: 'expr', e: expr() };
  };
  const list2 = (): Node[] => {
    const out = [expr()];
    while (opt(',')) {
      skipNl();
      out.push(expr());
    }
    return out;
  };
  const block = (): Stmt[] => {
    eat('{');
    skipNl();
    const body: Stmt[] = [];
    while (!at('}')) {
      body.push(statement());
      while (at(';') || at('nl')) pos++;
    }
    eat('}');
    return body;
  };
  const statement = (): Stmt => {
    skipNl();
    if (at('{')) return { k: 'block', body: block() };
    if (at(';')) {
      pos++;
      return { k: 'block', body: [] };
    }
    if (at('if')) {
      pos++;
      eat('(');
      const c = expr();
      eat(')');
      const then = statement();
      const save = pos;
      while (at(';') || at('nl')) pos++;
      if (at('else')) {
        pos++;
        return { k: 'if', c, then, else: statement() };
      }
      pos = save;
      return { k: 'if', c, then };
    }
    if (at('while')) {
      pos++;
      eat('(');
      const c = expr();
      eat(')');
      if (at(';')) {
        pos++;
        return { k: 'while', c, body: { k: 'block', body: [] } };
      }
      return { k: 'while', c, body: statement() };
    }
    if (at('do')) {
      pos++;
      const body = statement();
      while (at(';') || at('nl')) pos++;
      eat('while');
      eat('(');
      const c = expr();
      eat(')');
      endStmt();
      return { k: 'do', body, c };
    }
    if (at('for')) {
      pos++;
      eat('(');
      if (at('name') && peek(1).t === 'in') {
        const save = pos;
        const v = { k: 'var', name: toks[pos]!.v } as Node;
        pos += 2;
        const name = eat('name').v;
        if (opt(')')) return { k: 'forin', v, name, body: statement() };
        pos = save;
      }
      const init = at(';') ? undefined : simple();
      eat(';');
      skipNl();
      const c = at(';') ? undefined : expr();
      eat(';');
      skipNl();
      const step = at(')') ? undefined : simple();
      eat(')');
      if (at(';')) {
        pos++;
        return { k: 'for', init, c, step, body: { k: 'block', body: [] } };
      }
      return { k: 'for', init, c, step, body: statement() };
    }
    const s = simple();
    endStmt();
    return s;
  };

  skipNl();
  while (!at('eof')) {
    if (at('function')) {
      pos++;
      const name = at('funcname') || at('name') ? toks[pos++]!.v : fail();
      eat('(');
      const params: string[] = [];
      while (!at(')')) {
        params.push(eat('name').v);
        if (!at(')')) (eat(','), skipNl());
      }
      eat(')');
      skipNl();
      noRecord = true;
      program.functions.set(name, { params, body: block() });
      noRecord = false;
    } else if (at('BEGIN') || at('END')) {
      const which = toks[pos++]!.t;
      skipNl();
      noRecord = true;
      program.rules.push({ [which === 'BEGIN' ? 'begin' : 'end']: true, action: block() });
      noRecord = false;
    } else {
      const rule: Rule = {};
      if (!at('{')) {
        rule.pattern = expr();
        if (opt(',')) {
          skipNl();
          rule.until = expr();
        }
      }
      if (at('{')) rule.action = block();
      program.rules.push(rule);
    }
    while (at(';') || at('nl')) pos++;
  }
  // mawk reports them after the end of the text (one line further, as a syntax error there), last call first.
  const undefinedNames = [...new Set(called.filter((name) => !program.functions.has(name)))].reverse();
  if (undefinedNames.length > 0) {
    const line = (src.match(/\n/g)?.length ?? 0) + 2;
    throw new AwkSyntaxError(undefinedNames.map((name) => `line ${line}: function ${name} never defined`).join('\nawk: '));
  }
  return program;
}
