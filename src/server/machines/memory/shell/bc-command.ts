/**
 * `bc` as GNU bc computes: decimal numbers of any size (scaled integers), `scale` rules for `+ - * / % ^` and
 * `sqrt`, variables and arrays, `++ --` and compound assignment, comparisons and `! && ||`, `if`/`while`/`for`,
 * `print`, strings, `define` with `return` and `auto`, `length()`, `scale()`, `-l` (scale 20), output as bc prints
 * it (`.5`, lines cut at 70 characters with `\`), `(standard_in) N: syntax error`, `Divide by zero`, whole numbers
 * read in `ibase` and printed in `obase`, the math library's `s c a l e j` (bc-mathlib.ts). Fractions in other bases
 * fail loudly.
 * @see https://www.gnu.org/software/bc/manual/html_mono/bc.html
 */
import { defineCommand, latin1FromBytes, type CustomCommand, type ExecResult } from 'just-bash';
import { SANDBOX_HINT as HINT } from './world.ts';
import { readOperand, type InputCtx } from './text-input.ts';
import { cmp, digits as significantDigits, num, rescale, sqrt, TEN, zero, type Num } from './bc-num.ts';
import { arctan, bessel, cosine, exponential, logarithm, sine } from './bc-mathlib.ts';

/** bc's output lines: 70 characters, the first 69 of a longer one followed by `\`. */
function wrap(text: string): string {
  let out = '';
  for (let k = 0; k < text.length; k += 68) out += text.length - k > 69 ? `${text.slice(k, k + 68)}\\\n` : text.slice(k);
  return out;
}

/**
 * `a` as bc prints it in base `obase` (default 10): zero as `0`, no leading `0` before the point; in bases 2 to 16 the digits
 * 0-9A-F, above 16 each digit in decimal, padded to the width of obase-1 and led by a space (bc manual, "Basic
 * Elements"). A fraction in a base other than 10 is refused loudly.
 */
function show(a: Num, obase = 10): string {
  // Zero is `0` whatever its scale (`scale=2; 0/1` prints 0, as GNU bc's output routine special-cases it).
  if (a.n === 0n) return '0';
  const neg = a.n < 0n;
  if (obase !== 10) {
    if (a.s > 0) throw new Loud(`bc: a fraction printed with obase=${obase} is not available in the shell engine; ${HINT}`);
    let v = neg ? -a.n : a.n;
    let text = '';
    if (obase <= 16 || v === 0n) text = v.toString(Math.min(obase, 16)).toUpperCase();
    else {
      const width = String(obase - 1).length;
      do {
        text = ` ${String(v % BigInt(obase)).padStart(width, '0')}${text}`;
        v /= BigInt(obase);
      } while (v > 0n);
    }
    return wrap(`${neg ? '-' : ''}${text}`);
  }
  const digits = (neg ? -a.n : a.n).toString().padStart(a.s + 1, '0');
  let int = digits.slice(0, digits.length - a.s).replace(/^0+(?=\d)/, '');
  if (int === '0' && a.s > 0) int = '';
  return wrap(`${neg && a.n !== 0n ? '-' : ''}${int}${a.s > 0 ? `.${digits.slice(digits.length - a.s)}` : ''}`);
}

/**
 * A number literal read in base `ibase`: a lone digit is its own value (`A` is 10), a digit of a longer one at or
 * above ibase counts as ibase-1 (`1F` is 19 in base 10), as GNU bc reads them. A fraction in a base other than 10 is
 * refused loudly.
 */
function literal(text: string, ibase: number): Num {
  if (ibase === 10 && !/[A-F]/.test(text)) return num(text);
  if (text.includes('.')) throw new Loud(`bc: a fraction read with ibase=${ibase} is not available in the shell engine; ${HINT}`);
  const digits = [...text].map((c) => parseInt(c, 16));
  if (digits.length === 1) return { n: BigInt(digits[0]!), s: 0 };
  return { n: digits.reduce((acc, d) => acc * BigInt(ibase) + BigInt(Math.min(d, ibase - 1)), 0n), s: 0 };
}

class BcError extends Error {}
class Loud extends Error {}

/** `bc -l`'s functions by name, each given its arguments (missing ones 0) and the current scale. */
const MATH_LIBRARY: ReadonlyMap<string, (args: Num[], scale: number) => Num> = new Map(Object.entries({
  s: ([x = zero]: Num[], z: number) => sine(x, z),
  c: ([x = zero]: Num[], z: number) => cosine(x, z),
  a: ([x = zero]: Num[], z: number) => arctan(x, z),
  l: ([x = zero]: Num[], z: number) => logarithm(x, z),
  e: ([x = zero]: Num[], z: number) => exponential(x, z),
  j: ([n = zero, x = zero]: Num[], z: number) => bessel(n, x, z),
}));

type Tok = { t: string; v: string; line: number };

function lex(src: string): Tok[] {
  const out: Tok[] = [];
  let line = 1;
  const re = /\s*?(\/\*[\s\S]*?\*\/|#[^\n]*|\\\n|\n|[ \t\r]+|"[^"]*"|[\dA-F]+\.?[\dA-F]*|\.[\dA-F]+|[a-z][a-z0-9_]*|\+\+|--|[-+*/%^]=|==|<=|>=|!=|&&|\|\||[-+*/%^=<>!(){}\[\];,])/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < src.length && (m = re.exec(src))) {
    at = re.lastIndex;
    const v = m[1]!;
    if (v.startsWith('/*') || v.startsWith('#') || v === '\\\n' || /^[ \t\r]+$/.test(v)) {
      line += (v.match(/\n/g) ?? []).length;
      continue;
    }
    if (v === '\n') {
      out.push({ t: 'nl', v, line: line++ });
      continue;
    }
    const t = v.startsWith('"') ? 'str' : /^[\d.A-F]/.test(v) ? 'num' : /^[a-z]/.test(v) ? 'name' : v;
    out.push({ t, v: t === 'str' ? v.slice(1, -1) : v, line });
    line += (v.match(/\n/g) ?? []).length;
  }
  if (at < src.length) out.push({ t: 'bad', v: src[at]!, line });
  out.push({ t: 'eof', v: '', line: line });
  return out;
}

const KEYWORDS = new Set(['if', 'else', 'while', 'for', 'break', 'continue', 'print', 'quit', 'halt', 'define', 'return', 'auto', 'sqrt', 'length', 'scale', 'ibase', 'obase', 'last']);

/** Runs bc program text; returns its output and errors. */
function runBc(src: string, mathLib: boolean): { out: string; err: string; loud: boolean } {
  const toks = lex(src);
  let pos = 0;
  let out = '';
  let err = '';
  const vars = new Map<string, Num>([['scale', { n: mathLib ? 20n : 0n, s: 0 }], ['ibase', { n: 10n, s: 0 }], ['obase', { n: 10n, s: 0 }]]);
  const base = (name: 'ibase' | 'obase') => Number(vars.get(name)!.n / TEN(vars.get(name)!.s));
  const arrays = new Map<string, Map<string, Num>>();
  const funcs = new Map<string, { params: string[]; autos: string[]; body: number; end: number }>();
  const scale = () => Number(vars.get('scale')!.n / TEN(vars.get('scale')!.s));
  const peek = () => toks[pos]!;
  const at = (t: string) => peek().t === t || (peek().t === 'name' && peek().v === t && KEYWORDS.has(t));
  const syntax = (): never => {
    // bc has read the newline when it sees the error there: it names the next line.
    throw new BcError(`(standard_in) ${peek().t === 'nl' ? peek().line + 1 : peek().line}: syntax error`);
  };
  const eat = (t: string) => (at(t) ? toks[pos++]! : syntax());
  const skipNl = () => {
    while (at('nl')) pos++;
  };
  let skipping = 0;
  const frames: Array<Map<string, Num>> = [];
  const getVar = (name: string): Num => {
    for (let k = frames.length - 1; k >= 0 && k === frames.length - 1; k--) if (frames[k]!.has(name)) return frames[k]!.get(name)!;
    return vars.get(name) ?? zero;
  };
  const setVar = (name: string, v: Num) => {
    const f = frames[frames.length - 1];
    if (f?.has(name)) f.set(name, v);
    // ibase takes 2 to 16 and obase 2 up, as GNU bc clamps them.
    else if (name === 'ibase' || name === 'obase') vars.set(name, { n: BigInt(Math.max(2, Math.min(name === 'ibase' ? 16 : Number.MAX_SAFE_INTEGER, Number(rescale(v, 0).n)))), s: 0 });
    else vars.set(name, name === 'scale' ? rescale(v, 0) : v);
  };
  const arr = (name: string) => {
    let a = arrays.get(name);
    if (!a) arrays.set(name, (a = new Map()));
    return a;
  };
  const divide = (a: Num, b: Num): Num => {
    if (b.n === 0n) throw new BcError('Runtime error (func=(main), adr=0): Divide by zero');
    const s = scale();
    return { n: (a.n * TEN(s + b.s)) / (b.n * TEN(a.s)), s };
  };
  const binary = (op: string, a: Num, b: Num): Num => {
    const s = scale();
    switch (op) {
      case '+': case '-': {
        const m = Math.max(a.s, b.s);
        const x = rescale(a, m).n;
        const y = rescale(b, m).n;
        return { n: op === '+' ? x + y : x - y, s: m };
      }
      case '*': return rescale({ n: a.n * b.n, s: a.s + b.s }, Math.min(a.s + b.s, Math.max(s, a.s, b.s)));
      case '/': return divide(a, b);
      case '%': {
        if (b.n === 0n) throw new BcError('Runtime error (func=(main), adr=0): Modulo by zero');
        const q = divide(a, b);
        const r = binary('-', a, rescale({ n: q.n * b.n, s: q.s + b.s }, Math.max(s + b.s, a.s)));
        return rescale(r, Math.max(s + b.s, a.s));
      }
      case '^': {
        const e = Number(b.n / TEN(b.s));
        let r: Num = { n: 1n, s: 0 };
        for (let k = 0; k < Math.abs(e); k++) r = { n: r.n * a.n, s: r.s + a.s };
        if (e < 0) return divide({ n: 1n, s: 0 }, r);
        return rescale(r, Math.min(a.s * e, Math.max(s, a.s)));
      }
    }
    const c = cmp(a, b);
    const t = op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : op === '>=' ? c >= 0 : op === '==' ? c === 0 : c !== 0;
    return { n: t ? 1n : 0n, s: 0 };
  };
  const truth = (v: Num) => v.n !== 0n;

  // Expressions: each returns a thunk-free value (skipping mode parses without effects).
  const lvalue = (): { get: () => Num; set: (v: Num) => void } => {
    const name = eat('name').v;
    if (at('[')) {
      pos++;
      const idx = skipping ? '0' : String(expr().n);
      if (skipping) expr();
      eat(']');
      return { get: () => arr(name).get(idx) ?? zero, set: (v) => arr(name).set(idx, v) };
    }
    return { get: () => getVar(name), set: (v) => setVar(name, v) };
  };
  const primary = (): Num => {
    const tk = peek();
    if (tk.t === 'num') {
      pos++;
      return literal(tk.v, base('ibase'));
    }
    if (tk.t === '(') {
      pos++;
      const v = expr();
      eat(')');
      return v;
    }
    if (tk.t === '-') {
      pos++;
      const v = power();
      return { n: -v.n, s: v.s };
    }
    if (tk.t === '!') {
      pos++;
      return { n: truth(unary()) ? 0n : 1n, s: 0 };
    }
    if (tk.t === '++' || tk.t === '--') {
      pos++;
      const lv = lvalue();
      const v = binary(tk.t === '++' ? '+' : '-', lv.get(), { n: 1n, s: 0 });
      if (!skipping) lv.set(v);
      return v;
    }
    if (tk.t === 'name' && (tk.v === 'sqrt' || tk.v === 'length' || tk.v === 'scale') && toks[pos + 1]?.t === '(') {
      pos += 2;
      const v = expr();
      eat(')');
      if (tk.v === 'scale') return { n: BigInt(v.s), s: 0 };
      if (tk.v === 'length') return { n: BigInt(significantDigits(v)), s: 0 };
      if (v.n < 0n) throw new BcError('Runtime error (func=(main), adr=0): Square root of a negative number');
      return sqrt(v, scale());
    }
    if (tk.t === 'name' && toks[pos + 1]?.t === '(' && !KEYWORDS.has(tk.v)) {
      pos += 2;
      const args: Num[] = [];
      while (!at(')')) {
        args.push(expr());
        if (!at(')')) eat(',');
      }
      eat(')');
      if (skipping) return zero;
      const fn = funcs.get(tk.v);
      if (!fn) {
        const lib = mathLib ? MATH_LIBRARY.get(tk.v) : undefined;
        if (lib) return lib(args, scale());
        throw new BcError(`Runtime error (func=(main), adr=0): Function ${tk.v} not defined.`);
      }
      return call(fn, args);
    }
    if (tk.t === 'name') {
      const lv = lvalue();
      if (at('++') || at('--')) {
        const op = toks[pos++]!.t;
        const old = lv.get();
        if (!skipping) lv.set(binary(op === '++' ? '+' : '-', old, { n: 1n, s: 0 }));
        return old;
      }
      return lv.get();
    }
    return syntax();
  };
  const power = (): Num => {
    const a = primary();
    if (at('^')) {
      pos++;
      const b = unary();
      return skipping ? zero : binary('^', a, b);
    }
    return a;
  };
  const unary = (): Num => power();
  const mul = (): Num => {
    let a = unary();
    while (at('*') || at('/') || at('%')) {
      const op = toks[pos++]!.t;
      const b = unary();
      a = skipping ? zero : binary(op, a, b);
    }
    return a;
  };
  const add = (): Num => {
    let a = mul();
    while (at('+') || at('-')) {
      const op = toks[pos++]!.t;
      const b = mul();
      a = binary(op, a, b);
    }
    return a;
  };
  const rel = (): Num => {
    let a = add();
    while (['<', '<=', '>', '>=', '==', '!='].some((o) => at(o))) {
      const op = toks[pos++]!.t;
      a = binary(op, a, add());
    }
    return a;
  };
  const and = (): Num => {
    let a = rel();
    while (at('&&')) {
      pos++;
      const b = rel();
      a = { n: truth(a) && truth(b) ? 1n : 0n, s: 0 };
    }
    return a;
  };
  const or = (): Num => {
    let a = and();
    while (at('||')) {
      pos++;
      const b = and();
      a = { n: truth(a) || truth(b) ? 1n : 0n, s: 0 };
    }
    return a;
  };
  /** An expression; `assigned` tells the statement level not to print it. */
  let assigned = false;
  const expr = (): Num => {
    assigned = false;
    const save = pos;
    if (at('name') && !['sqrt', 'length'].includes(peek().v)) {
      const lv = (() => {
        try {
          return lvalue();
        } catch {
          return undefined;
        }
      })();
      const op = peek().t;
      if (lv && ['=', '+=', '-=', '*=', '/=', '%=', '^='].includes(op)) {
        pos++;
        const v = expr();
        const result = op === '=' ? v : binary(op[0]!, lv.get(), v);
        if (!skipping) lv.set(result);
        assigned = true;
        return result;
      }
      pos = save;
    }
    return or();
  };

  const call = (fn: { params: string[]; autos: string[]; body: number; end: number }, args: Num[]): Num => {
    const frame = new Map<string, Num>();
    fn.params.forEach((p, k) => frame.set(p, args[k] ?? zero));
    for (const a of fn.autos) frame.set(a, zero);
    frames.push(frame);
    const saved = pos;
    pos = fn.body;
    try {
      statement();
      return zero;
    } catch (e) {
      if (e instanceof Return) return e.v;
      throw e;
    } finally {
      frames.pop();
      pos = saved;
    }
  };

  const statement = (): void => {
    skipNl();
    const tk = peek();
    if (tk.t === '{') {
      pos++;
      skipNl();
      while (!at('}')) {
        statement();
        while (at(';') || at('nl')) pos++;
      }
      pos++;
      return;
    }
    if (tk.t === 'str') {
      pos++;
      if (!skipping) out += tk.v;
      return;
    }
    if (at('quit')) {
      if (!skipping) throw new Quit();
      pos++;
      return;
    }
    if (at('halt')) {
      pos++;
      if (!skipping) throw new Quit();
      return;
    }
    if (at('print')) {
      pos++;
      for (;;) {
        if (at('str')) {
          const s = toks[pos++]!.v;
          if (!skipping) out += s.replace(/\\([abfnrtq\\e])/g, (_, c: string) => ({ a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', q: '"', '\\': '\\', e: '\\' })[c]!);
        } else {
          const v = expr();
          if (!skipping) out += show(v, base('obase'));
        }
        if (!at(',')) break;
        pos++;
      }
      return;
    }
    if (at('if') || at('while')) {
      const kind = toks[pos++]!.v;
      eat('(');
      const condAt = pos;
      const c = expr();
      eat(')');
      if (kind === 'if') {
        const bodyAt = pos;
        runOrSkip(truth(c) && !skipping);
        const save = pos;
        skipNl();
        if (at('else')) {
          pos++;
          runOrSkip(!truth(c) && !skipping);
        } else pos = save;
        void bodyAt;
        return;
      }
      const bodyAt = pos;
      let cond = c;
      while (truth(cond) && !skipping) {
        pos = bodyAt;
        try {
          statement();
        } catch (e) {
          if (e instanceof BreakLoop) break;
          throw e;
        }
        pos = condAt;
        cond = expr();
        eat(')');
      }
      pos = bodyAt;
      runOrSkip(false);
      return;
    }
    if (at('for')) {
      pos++;
      eat('(');
      if (!at(';')) expr();
      eat(';');
      const condAt = pos;
      let c = at(';') ? { n: 1n, s: 0 } : expr();
      eat(';');
      const stepAt = pos;
      runOrSkip(false, () => (at(')') ? undefined : expr()));
      eat(')');
      const bodyAt = pos;
      while (truth(c) && !skipping) {
        pos = bodyAt;
        try {
          statement();
        } catch (e) {
          if (e instanceof BreakLoop) break;
          throw e;
        }
        pos = stepAt;
        if (!at(')')) expr();
        pos = condAt;
        c = at(';') ? { n: 1n, s: 0 } : expr();
      }
      pos = bodyAt;
      runOrSkip(false);
      return;
    }
    if (at('break')) {
      pos++;
      if (!skipping) throw new BreakLoop();
      return;
    }
    if (at('return')) {
      pos++;
      let v = zero;
      if (at('(')) {
        pos++;
        v = at(')') ? zero : expr();
        eat(')');
      } else if (!at(';') && !at('nl') && !at('}') && !at('eof')) v = expr();
      if (!skipping) throw new Return(v);
      return;
    }
    if (at('define')) {
      pos++;
      const name = eat('name').v;
      eat('(');
      const params: string[] = [];
      while (!at(')')) {
        params.push(eat('name').v);
        if (!at(')')) eat(',');
      }
      eat(')');
      skipNl();
      const body = pos;
      eat('{');
      skipNl();
      const autos: string[] = [];
      if (at('auto')) {
        pos++;
        while (at('name')) {
          autos.push(toks[pos++]!.v);
          if (!at(',')) break;
          pos++;
        }
      }
      pos = body;
      runOrSkip(false);
      funcs.set(name, { params, autos, body, end: pos });
      return;
    }
    if (at('auto')) {
      while (!at(';') && !at('nl')) pos++;
      return;
    }
    if (at(';') || at('nl') || at('eof')) return;
    const v = expr();
    if (!assigned && !skipping) {
      out += `${show(v, base('obase'))}\n`;
      vars.set('last', v);
    }
  };
  /** Runs the next statement, or only parses it past when `run` is false. */
  const runOrSkip = (run: boolean, f: () => unknown = statement) => {
    if (!run) skipping++;
    try {
      f();
    } finally {
      if (!run) skipping--;
    }
  };

  let loud = false;
  while (!at('eof')) {
    const start = pos;
    try {
      statement();
      if (!at(';') && !at('nl') && !at('eof') && !at('}')) syntax();
      while (at(';') || at('nl')) pos++;
    } catch (e) {
      if (e instanceof Quit) break;
      if (e instanceof Loud) {
        err += `${e.message}\n`;
        loud = true;
      } else if (e instanceof BcError) err += `${e.message}\n`;
      else throw e;
      // Go on after the line where it failed.
      const line = toks[Math.max(pos, start)]!.line;
      while (!at('eof') && !(at('nl') && peek().line >= line)) pos++;
      if (at('nl')) pos++;
    }
  }
  return { out, err, loud };
}

class Quit {}
class BreakLoop {}
class Return {
  constructor(readonly v: Num) {}
}

async function bc(args: string[], ctx: InputCtx): Promise<ExecResult> {
  let mathLib = false;
  const files: string[] = [];
  for (const a of args) {
    if (a === '-l' || a === '--mathlib') mathLib = true;
    else if (a === '-q' || a === '--quiet' || a === '-s' || a === '--standard' || a === '-w' || a === '--warn') continue;
    else if (a.startsWith('-') && a !== '-') return { stdout: '', stderr: `bc: option ${a} is not available in the shell engine; ${HINT}\n`, exitCode: 2 };
    else files.push(a);
  }
  let src = '';
  for (const f of files) {
    const input = await readOperand(ctx, f);
    if ('error' in input) return { stdout: '', stderr: `File ${f} is unavailable.\n`, exitCode: 1 };
    src += input.bytes;
  }
  src += latin1FromBytes(ctx.stdin);
  const r = runBc(src, mathLib);
  return { stdout: r.out, stderr: r.err, exitCode: r.loud ? 2 : 0 };
}

/** `bc` for just-bash's `customCommands`. */
export function bcCommands(): CustomCommand[] {
  return [defineCommand('bc', (args, ctx) => bc(args, ctx))];
}
