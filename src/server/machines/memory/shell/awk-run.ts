/**
 * The awk interpreter over awk-parse.ts's tree, as mawk 1.3.4 runs programs: values that are numbers, strings or
 * both (input fields that look numeric compare as numbers), records split by `RS` (a character, a regex, or
 * paragraphs when empty) and fields by `FS` (blanks, a character, or a regex), `$0`/`NF` rebuilt with `OFS`, byte
 * strings throughout (mawk counts bytes), the builtins, user functions (arrays by reference), `getline` in all its
 * forms, output to files, `/dev/stderr` and commands, `system()`. The host side (files, commands) is `AwkHost`.
 * @deviation `rand()` draws its own sequence (the same after the same `srand(n)`), not mawk's; output to files and
 * commands is written when they are closed or awk ends (and files before a `system()` or command runs).
 * @see https://pubs.opengroup.org/onlinepubs/9699919799/utilities/awk.html
 */
import { intKey, MawkArray, type ArrayKey } from './awk-array.ts';
import { awkRegExp } from './grep-regex.ts';
import { execLongest, matchAllLongest, splitLongest } from './posix-match.ts';
import { isStdinOperand } from './text-input.ts';
import { awkSprintf, numberText, sprintfError } from './awk-format.ts';
import { formatDate } from './date-format.ts';
import type { Node, Program, Stmt } from './awk-parse.ts';
import { awkNumber, rmEscape, strnumValue } from './awk-text.ts';

/** A string that came from input and looks like a number: it compares as one. */
class StrNum {
  constructor(
    readonly s: string,
    readonly n: number,
  ) {}
}
type Value = number | string | StrNum;
type AwkArray = MawkArray<Value>;

/** What the interpreter needs from outside: reading files, running commands, ending output. */
export interface AwkHost {
  readFile(name: string): Promise<string | undefined>;
  /** Why the last `readFile` gave nothing, as strerror words it (`Permission denied`); absent: no such file. */
  readonly readError?: string;
  /** Runs `cmd` with `stdin`; its stdout (bytes) and status. Its stderr goes to the host's stderr. */
  run(cmd: string, stdin: string): Promise<{ stdout: string; status: number }>;
  writeFile(name: string, data: string, append: boolean): Promise<boolean>;
}

export class AwkRuntimeError extends Error {}
class Next {}
class NextFile {}
class Exit {
  constructor(readonly code: number) {}
}
class Break {}
class Continue {}
class Return {
  constructor(readonly v: Value) {}
}

const UNINIT = new StrNum('', 0);

/** mawk's run-time error for `$i` with a negative `i`. */
const negativeField = (i: number) => new AwkRuntimeError(`negative field index $${i}`);

/** An input string as a value: a StrNum when mawk takes it for a number (awk-text.ts strnumValue). */
const input = (s: string): Value => {
  const n = strnumValue(s);
  return n === undefined ? s : new StrNum(s, n);
};

export class AwkRun {
  out = '';
  err = '';
  readonly globals = new Map<string, Value>();
  readonly arrays = new Map<string, AwkArray>();
  private fields: string[] = [];
  private record = '';
  private nf = 0;
  private splitDone = true;
  private frames: Array<{ scalars: Map<string, Value>; arrays: Map<string, AwkArray> }> = [];
  private regexCache = new Map<string, RegExp>();
  private ranges = new Map<number, boolean>();
  private outputs = new Map<string, { kind: 'file' | 'pipe'; data: string; append: boolean }>();
  private readers = new Map<string, { records: string[]; at: number }>();
  private prevSeed = 0;
  private randState = 1;
  /** The main input: the remaining operands and the records of the current one. */
  private main: { operands: string[]; records: string[]; at: number; started: boolean } = { operands: [], records: [], at: 0, started: false };

  /** Loop iterations so far, against `limits.iterations` (a runaway loop ends as just-bash's own loops do). */
  private iterations = 0;

  constructor(
    readonly prog: Program,
    readonly host: AwkHost,
    /** The data on stdin, or null when stdin is closed; read only when the program reads stdin (so taken only then). */
    readonly stdin: () => string | null,
    readonly limits: { iterations: number; signal?: AbortSignal } = { iterations: Infinity },
  ) {
    for (const [k, v] of Object.entries({ FS: ' ', OFS: ' ', ORS: '\n', RS: '\n', NR: 0, NF: 0, FNR: 0, SUBSEP: '\x1c', CONVFMT: '%.6g', OFMT: '%.6g', RSTART: 0, RLENGTH: -1, FILENAME: '' })) this.globals.set(k, v);
    this.randState = 0;
  }

  // ---- values ----
  num(v: Value): number {
    if (typeof v === 'number') return v;
    if (v instanceof StrNum) return v.n;
    return awkNumber(v);
  }
  str(v: Value, fmt = 'CONVFMT'): string {
    if (typeof v === 'string') return v;
    if (v instanceof StrNum) return v.s;
    return numberText(v, this.str(this.globals.get(fmt) ?? '%.6g'));
  }
  bool(v: Value): boolean {
    if (typeof v === 'number') return v !== 0;
    if (v instanceof StrNum) return v === UNINIT ? false : v.n !== 0;
    return v !== '';
  }
  private compare(a: Value, b: Value): number {
    const numeric = (v: Value) => typeof v === 'number' || v instanceof StrNum;
    if (numeric(a) && numeric(b)) {
      const x = this.num(a);
      const y = this.num(b);
      return x < y ? -1 : x > y ? 1 : x === y ? 0 : 1;
    }
    const x = this.str(a);
    const y = this.str(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  regex(source: string): RegExp {
    let re = this.regexCache.get(source);
    if (!re) {
      const r = awkRegExp(source);
      if (!(r instanceof RegExp)) throw new AwkRuntimeError(`regular expression compile failed (${r.error})\n${source}`);
      re = r;
      this.regexCache.set(source, re);
    }
    return re;
  }
  private async reOf(n: Node): Promise<RegExp> {
    return this.regex(n.k === 'regex' ? n.v : this.str(await this.eval(n)));
  }

  // ---- records and fields ----
  setRecord(s: string): void {
    this.record = s;
    this.splitDone = false;
  }
  private split(): void {
    if (this.splitDone) return;
    this.fields = this.splitText(this.record, this.str(this.globals.get('FS')!));
    this.nf = this.fields.length;
    this.splitDone = true;
  }
  splitText(s: string, fs: string): string[] {
    if (s === '') return [];
    if (fs === ' ') return s.split(/[ \t\n]+/).filter((x) => x !== '');
    // A single character other than a blank is itself, never a pattern: `-F.`, `-F'|'`, `-F+` (mawk, gawk, POSIX).
    if (fs.length === 1) {
      // In paragraph mode (RS "") mawk splits by FS alone: a newline separates fields only for the default FS.
      return s.split(fs);
    }
    return splitLongest(this.regex(fs), s);
  }
  getField(i: number): Value {
    if (i < 0) throw negativeField(i);
    if (i === 0) return input(this.record);
    this.split();
    return i <= this.nf ? input(this.fields[i - 1] ?? '') : UNINIT;
  }
  setField(i: number, v: string): void {
    if (i < 0) throw negativeField(i);
    if (i === 0) return this.setRecord(v);
    this.split();
    while (this.fields.length < i) this.fields.push('');
    this.fields[i - 1] = v;
    this.nf = Math.max(this.nf, i);
    this.rebuild();
  }
  setNF(n: number): void {
    this.split();
    this.fields.length = n;
    for (let k = 0; k < n; k++) this.fields[k] ??= '';
    this.nf = n;
    this.rebuild();
  }
  private rebuild(): void {
    this.record = this.fields.slice(0, this.nf).join(this.str(this.globals.get('OFS')!));
  }
  getNF(): number {
    this.split();
    return this.nf;
  }

  /** Records of `text` as RS splits them. */
  records(text: string): string[] {
    const rs = this.str(this.globals.get('RS')!);
    if (text === '') return [];
    if (rs === '') {
      const t = text.replace(/^\n+/, '').replace(/\n+$/, '');
      return t === '' ? [] : t.split(/\n\n+/);
    }
    const parts = rs.length === 1 ? text.split(rs) : splitLongest(this.regex(rs), text);
    if (parts[parts.length - 1] === '') parts.pop();
    return parts;
  }

  // ---- variables ----
  private scope(name: string): Map<string, Value> | undefined {
    const f = this.frames[this.frames.length - 1];
    return f && f.scalars.has(name) ? f.scalars : undefined;
  }
  getVar(name: string): Value {
    if (name === 'NF') return this.getNF();
    const local = this.scope(name);
    if (local) return local.get(name)!;
    return this.globals.get(name) ?? UNINIT;
  }
  setVar(name: string, v: Value): void {
    if (name === 'NF') return this.setNF(Math.trunc(this.num(v)));
    const local = this.scope(name);
    if (local) local.set(name, v);
    else this.globals.set(name, v);
  }
  array(name: string): AwkArray {
    const f = this.frames[this.frames.length - 1];
    if (f?.arrays.has(name)) return f.arrays.get(name)!;
    if (f?.scalars.has(name)) {
      // An untouched local becomes a local array on first use as one.
      const a: AwkArray = new MawkArray(() => UNINIT);
      f.scalars.delete(name);
      f.arrays.set(name, a);
      return a;
    }
    let a = this.arrays.get(name);
    if (!a) this.arrays.set(name, (a = new MawkArray(() => UNINIT)));
    return a;
  }
  /** The values of `nodes`, evaluated left to right (one may change what a later one reads: `match(…), RSTART`). */
  private async values(nodes: Node[]): Promise<Value[]> {
    const out: Value[] = [];
    for (const n of nodes) out.push(await this.eval(n));
    return out;
  }

  /**
   * A subscript's key: a number that is an integer (mawk's C_DOUBLE, not an input string that looks like one) is
   * looked up as an integer, anything else by its string; several subscripts are joined with SUBSEP.
   */
  private async key(subs: Node[]): Promise<ArrayKey> {
    if (subs.length === 1) {
      const v = await this.eval(subs[0]!);
      return (typeof v === 'number' ? intKey(v) : undefined) ?? this.str(v);
    }
    const parts: string[] = [];
    for (const sub of subs) parts.push(this.str(await this.eval(sub)));
    return parts.join(this.str(this.globals.get('SUBSEP')!));
  }

  // ---- evaluation ----
  async eval(n: Node): Promise<Value> {
    switch (n.k) {
      case 'num': return n.v;
      case 'str': return n.v;
      case 'regex': return this.regex(n.v).test(this.record) ? 1 : 0;
      case 'group': return this.eval(n.e);
      case 'var': return this.getVar(n.name);
      case 'field': return this.getField(Math.trunc(this.num(await this.eval(n.e))));
      case 'index': {
        // Referring to an element creates it, empty (POSIX awk): `x["k"]; if ("k" in x)` is true.
        const array = this.array(n.name);
        const key = await this.key(n.subs);
        const v = array.get(key);
        if (v !== undefined) return v;
        array.set(key, UNINIT);
        return UNINIT;
      }
      case 'in': return this.array(n.name).has(await this.key(n.subs)) ? 1 : 0;
      case 'cond': return this.eval(this.bool(await this.eval(n.c)) ? n.a : n.b);
      case 'and': return this.bool(await this.eval(n.a)) && this.bool(await this.eval(n.b)) ? 1 : 0;
      case 'or': return this.bool(await this.eval(n.a)) || this.bool(await this.eval(n.b)) ? 1 : 0;
      case 'match': {
        const a = this.str(await this.eval(n.a));
        return (await this.reOf(n.re)).test(a) !== n.neg ? 1 : 0;
      }
      case 'cat': {
        const a = this.str(await this.eval(n.a));
        return a + this.str(await this.eval(n.b));
      }
      case 'unary': {
        const v = await this.eval(n.e);
        return n.op === '!' ? (this.bool(v) ? 0 : 1) : n.op === '-' ? -this.num(v) : this.num(v);
      }
      case 'bin': {
        const a = await this.eval(n.a);
        return this.binary(n.op, a, await this.eval(n.b));
      }
      case 'assign': {
        const v = await this.eval(n.e);
        let result: Value = v === UNINIT ? '' : v;
        if (n.op !== '=') result = this.binary(n.op.slice(0, -1), await this.eval(n.target), v);
        await this.store(n.target, result);
        return result;
      }
      case 'incr': {
        const old = this.num(await this.eval(n.target));
        const next = old + (n.op === '++' ? 1 : -1);
        await this.store(n.target, next);
        return n.prefix ? next : old;
      }
      case 'call': return this.call(n.name, n.args);
      case 'builtin': return this.builtin(n.name, n.args);
      case 'getline': return this.getline(n);
    }
  }

  private binary(op: string, a: Value, b: Value): Value {
    switch (op) {
      case '+': return this.num(a) + this.num(b);
      case '-': return this.num(a) - this.num(b);
      case '*': return this.num(a) * this.num(b);
      case '/': return this.num(a) / this.num(b);
      case '%': return this.num(a) % this.num(b);
      case '^': return Math.pow(this.num(a), this.num(b));
      case '<': return this.compare(a, b) < 0 ? 1 : 0;
      case '<=': return this.compare(a, b) <= 0 ? 1 : 0;
      case '>': return this.compare(a, b) > 0 ? 1 : 0;
      case '>=': return this.compare(a, b) >= 0 ? 1 : 0;
      case '==': return this.compare(a, b) === 0 ? 1 : 0;
      case '!=': return this.compare(a, b) !== 0 ? 1 : 0;
    }
    throw new AwkRuntimeError(`unknown operator ${op}`);
  }

  async store(target: Node, v: Value): Promise<void> {
    if (target.k === 'var') this.setVar(target.name, v);
    else if (target.k === 'field') this.setField(Math.trunc(this.num(await this.eval(target.e))), this.str(v));
    else if (target.k === 'index') this.array(target.name).set(await this.key(target.subs), v);
  }

  private async call(name: string, args: Node[]): Promise<Value> {
    const fn = this.prog.functions.get(name);
    if (!fn) throw new AwkRuntimeError(`function ${name} never defined`);
    const frame = { scalars: new Map<string, Value>(), arrays: new Map<string, AwkArray>() };
    for (const [k, p] of fn.params.entries()) {
      const a = args[k];
      if (a && a.k === 'var' && (this.isArray(a.name) || this.prog.functions.size > 0 && this.usedAsArray(fn.body, p))) frame.arrays.set(p, this.array(a.name));
      else frame.scalars.set(p, a ? await this.eval(a) : UNINIT);
    }
    this.frames.push(frame);
    try {
      await this.block(fn.body);
      return UNINIT;
    } catch (e) {
      if (e instanceof Return) return e.v;
      throw e;
    } finally {
      this.frames.pop();
    }
  }
  private isArray(name: string): boolean {
    const f = this.frames[this.frames.length - 1];
    return f?.arrays.has(name) || (!f?.scalars.has(name) && this.arrays.has(name));
  }
  /** Whether `param` is indexed, deleted, iterated or tested with `in` in `body` (then it is passed by reference). */
  private usedAsArray(body: unknown, param: string): boolean {
    if (Array.isArray(body)) return body.some((b) => this.usedAsArray(b, param));
    if (!body || typeof body !== 'object') return false;
    const n = body as { k?: string; name?: string };
    if ((n.k === 'index' || n.k === 'in' || n.k === 'delete' || n.k === 'forin') && n.name === param) return true;
    if (n.k === 'builtin' && (n as { name: string }).name === 'split') {
      const arr = (body as { args: Node[] }).args[1];
      if (arr?.k === 'var' && arr.name === param) return true;
    }
    return Object.values(body).some((v) => this.usedAsArray(v, param));
  }

  private async builtin(name: string, argNodes: Node[]): Promise<Value> {
    const arg = async (i: number) => (argNodes[i] ? await this.eval(argNodes[i]!) : UNINIT);
    switch (name) {
      case 'length': {
        const a = argNodes[0];
        if (a?.k === 'var' && this.isArray(a.name)) return this.array(a.name).size;
        return this.str(a ? await arg(0) : input(this.record)).length;
      }
      case 'substr': {
        const s = this.str(await arg(0));
        // mawk 1.3.4's arithmetic (checked against it): start and length truncate toward zero, and a start below 1
        // becomes 1 with the length grown by as much as the start was below 1 (`substr("hello", -1, 3)` is `hell`).
        const whole = (v: number) => (Number.isNaN(v) ? 0 : Math.trunc(v));
        let start = whole(this.num(await arg(1)));
        let len = argNodes.length > 2 ? whole(this.num(await arg(2))) : Infinity;
        if (start < 1) {
          len -= start;
          start = 1;
        }
        return len <= 0 ? '' : s.slice(start - 1, len === Infinity ? undefined : start - 1 + len);
      }
      case 'index': {
        return this.str(await arg(0)).indexOf(this.str(await arg(1))) + 1;
      }
      case 'split': {
        const s = this.str(await arg(0));
        const target = argNodes[1];
        if (target?.k !== 'var') throw new AwkRuntimeError('split: second argument is not an array');
        const sep = argNodes[2] ? (argNodes[2].k === 'regex' ? argNodes[2].v : this.str(await arg(2))) : this.str(this.globals.get('FS')!);
        const parts = argNodes[2]?.k === 'regex' ? (s === '' ? [] : splitLongest(this.regex(sep), s)) : this.splitText(s, sep);
        const arr = this.array(target.name);
        arr.load(parts.map(input));
        return parts.length;
      }
      case 'sub': case 'gsub': {
        const re = await this.reOf(argNodes[0]!);
        const repl = this.str(await arg(1));
        const target = argNodes[2] ?? ({ k: 'field', e: { k: 'num', v: 0 } } as Node);
        const s = this.str(await this.eval(target));
        let count = 0;
        let out = '';
        let last = 0;
        // Leftmost-longest matches; an empty match where the previous match ended is no match (mawk's and gawk's
        // rule: `gsub(/b*/, "x")` on `abc` gives `xaxcx`).
        let prevEnd = -1;
        for (const m of matchAllLongest(re, s)) {
          if (m[0] === '' && m.index === prevEnd) continue;
          out += s.slice(last, m.index) + repl.replace(/\\\\|\\&|&/g, (t) => (t === '&' ? m[0] : t === '\\&' ? '&' : '\\'));
          last = m.index + m[0].length;
          prevEnd = last;
          count++;
          if (m[0] === '') {
            if (m.index < s.length) out += s[m.index];
            last = m.index + 1;
          }
          if (name === 'sub') break;
        }
        if (count > 0) await this.store(target, out + s.slice(last));
        return count;
      }
      case 'match': {
        const s = this.str(await arg(0));
        const re = argNodes[1]!.k === 'regex' ? this.regex(argNodes[1]!.v) : this.regex(this.str(await arg(1)));
        const m = execLongest(re, s);
        this.globals.set('RSTART', m ? m.index + 1 : 0);
        this.globals.set('RLENGTH', m ? m[0].length : -1);
        return m ? m.index + 1 : 0;
      }
      case 'sprintf': {
        const vals = await this.values(argNodes);
        const r = awkSprintf(this.str(vals[0] ?? ''), vals.slice(1), (v) => this.num(v), (v) => this.str(v));
        if ('error' in r) throw new AwkRuntimeError(sprintfError(r, 'sprintf', this.str(vals[0] ?? '')));
        return r.text;
      }
      case 'sin': return Math.sin(this.num(await arg(0)));
      case 'cos': return Math.cos(this.num(await arg(0)));
      case 'atan2': return Math.atan2(this.num(await arg(0)), this.num(await arg(1)));
      case 'exp': return Math.exp(this.num(await arg(0)));
      case 'log': return Math.log(this.num(await arg(0)));
      case 'sqrt': return Math.sqrt(this.num(await arg(0)));
      case 'int': return Math.trunc(this.num(await arg(0)));
      case 'rand': {
        // A small LCG: the sequence is not mawk's, only as uniform in [0,1).
        this.randState = (this.randState * 1103515245 + 12345) % 2147483648;
        return this.randState / 2147483648;
      }
      case 'srand': {
        const prev = this.prevSeed;
        this.prevSeed = argNodes.length > 0 ? this.num(await arg(0)) : Math.floor(Date.now() / 1000);
        this.randState = Math.abs(Math.trunc(this.prevSeed)) % 2147483648;
        return prev;
      }
      // mawk 1.3.4's time functions: seconds since the epoch; strftime formats as date(1) does, in TZ unless utc.
      case 'systime': return Math.floor(Date.now() / 1000);
      case 'strftime': {
        // An empty format is the default one, as with none.
        const format = (argNodes.length > 0 ? this.str(await arg(0)) : '') || '%c';
        const at = argNodes.length > 1 ? Math.trunc(this.num(await arg(1))) : Math.floor(Date.now() / 1000);
        const utc = argNodes.length > 2 && this.num(await arg(2)) !== 0;
        const tz = this.array('ENVIRON').get('TZ');
        return formatDate(format, { ms: at * 1000, ns: 0, tz: utc || tz === undefined ? 'UTC' : String(tz) });
      }
      case 'mktime': {
        // "YYYY MM DD HH MM SS [DST]" in the sprite's zone (UTC); -1 when it is not six numbers.
        const f = this.str(await arg(0)).trim().split(/\s+/).map(Number);
        if (f.length < 6 || f.slice(0, 6).some((n) => !Number.isInteger(n))) return -1;
        return Math.floor(Date.UTC(f[0]!, f[1]! - 1, f[2], f[3], f[4], f[5]) / 1000);
      }
      case 'tolower': return this.str(await arg(0)).replace(/[A-Z]+/g, (c) => c.toLowerCase());
      case 'toupper': return this.str(await arg(0)).replace(/[a-z]+/g, (c) => c.toUpperCase());
      case 'system': {
        const cmd = this.str(await arg(0));
        await this.flushPipes();
        const r = await this.host.run(cmd, '');
        this.out += r.stdout;
        return r.status;
      }
      case 'close': return this.close(this.str(await arg(0)));
      case 'fflush': return 0;
    }
    throw new AwkRuntimeError(`function ${name} never defined`);
  }

  // ---- input ----
  /** The next main-input record, or undefined at the end of all input. */
  async nextMain(): Promise<string | undefined> {
    for (;;) {
      if (this.main.started && this.main.at < this.main.records.length) {
        this.globals.set('FNR', this.num(this.globals.get('FNR')!) + 1);
        this.globals.set('NR', this.num(this.globals.get('NR')!) + 1);
        return this.main.records[this.main.at++];
      }
      if (!(await this.openNext())) return undefined;
    }
  }
  /** Opens the next operand of ARGV (assignments applied in turn); false when none is left. */
  private async openNext(): Promise<boolean> {
    const argv = this.array('ARGV');
    const argc = this.num(this.globals.get('ARGC') ?? 0);
    let index = this.mainIndex;
    while (index < argc) {
      const operand = argv.has(index) ? this.str(argv.get(index)!) : '';
      index++;
      this.mainIndex = index;
      if (operand === '') continue;
      const assign = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(operand);
      if (assign) {
        this.setVar(assign[1]!, input(rmEscape(assign[2]!)));
        continue;
      }
      return this.openMain(operand);
    }
    if (!this.main.started && !this.usedOperand) return this.openMain('-');
    return false;
  }
  private mainIndex = 1;
  private usedOperand = false;
  private async openMain(name: string): Promise<boolean> {
    this.usedOperand = true;
    const text = isStdinOperand(name) ? this.stdinText() : await this.host.readFile(name);
    if (text === undefined) throw new AwkRuntimeError(`cannot open ${name} (${this.host.readError ?? 'No such file or directory'})`, { cause: 'open' });
    // mawk names its standard input `-`, given as an operand or read for want of one.
    this.globals.set('FILENAME', name);
    this.globals.set('FNR', 0);
    this.main = { operands: [], records: this.records(text), at: 0, started: true };
    return true;
  }
  /** The stdin's bytes; a closed stdin (`<&-`) fails the run as mawk does: `awk: read error (Bad file descriptor)`. */
  private stdinText(): string {
    const text = this.stdin();
    if (text === null) throw new AwkRuntimeError('read error (Bad file descriptor)', { cause: 'read' });
    return text;
  }
  skipFile(): void {
    this.main.at = this.main.records.length;
  }

  private async getline(n: Extract<Node, { k: 'getline' }>): Promise<Value> {
    let rec: string | undefined;
    if (n.cmd) {
      const cmd = this.str(await this.eval(n.cmd));
      let r = this.readers.get(`|${cmd}`);
      if (!r) {
        await this.flushPipes();
        const res = await this.host.run(cmd, '');
        this.readers.set(`|${cmd}`, (r = { records: this.records(res.stdout), at: 0 }));
      }
      rec = r.records[r.at++];
      if (rec !== undefined) this.globals.set('NR', this.num(this.globals.get('NR')!) + 1);
    } else if (n.file) {
      const name = this.str(await this.eval(n.file));
      let r = this.readers.get(`<${name}`);
      if (!r) {
        const text = isStdinOperand(name) ? this.stdinText() : await this.host.readFile(name);
        if (text === undefined) return -1;
        this.readers.set(`<${name}`, (r = { records: this.records(text), at: 0 }));
      }
      rec = r.records[r.at++];
    } else {
      rec = await this.nextMain();
    }
    if (rec === undefined) return 0;
    if (n.target) await this.store(n.target, input(rec));
    else {
      this.setRecord(rec);
      if (n.cmd) this.globals.set('NR', this.num(this.globals.get('NR')!));
    }
    return 1;
  }

  // ---- output ----
  async emit(text: string, redir: { op: string; to: Node } | undefined): Promise<void> {
    if (!redir) {
      this.out += text;
      return;
    }
    const name = this.str(await this.eval(redir.to));
    if (redir.op !== '|' && (name === '/dev/stdout' || name === '-')) this.out += text;
    else if (redir.op !== '|' && name === '/dev/stderr') this.err += text;
    else {
      const key = `${redir.op === '|' ? '|' : '>'}${name}`;
      let o = this.outputs.get(key);
      if (!o) this.outputs.set(key, (o = { kind: redir.op === '|' ? 'pipe' : 'file', data: '', append: redir.op === '>>' }));
      o.data += text;
    }
  }
  async close(name: string): Promise<number> {
    let status = -1;
    for (const key of [`>${name}`, `|${name}`]) {
      const o = this.outputs.get(key);
      if (!o) continue;
      this.outputs.delete(key);
      status = await this.finish(name, o);
    }
    for (const key of [`<${name}`, `|${name}`]) if (this.readers.delete(key)) status = 0;
    return status;
  }
  private async finish(name: string, o: { kind: 'file' | 'pipe'; data: string; append: boolean }): Promise<number> {
    if (o.kind === 'pipe') {
      const r = await this.host.run(name, o.data);
      this.out += r.stdout;
      return r.status;
    }
    return (await this.host.writeFile(name, o.data, o.append)) ? 0 : -1;
  }
  /** Writes every open file, and runs every output pipe (at exit, or before a command that may read them). */
  async flushAll(): Promise<void> {
    for (const [key, o] of [...this.outputs]) {
      this.outputs.delete(key);
      await this.finish(key.slice(1), o);
    }
  }
  private async flushPipes(): Promise<void> {
    for (const [key, o] of [...this.outputs]) {
      if (o.kind !== 'file') continue;
      // Files written so far are on disk before a command runs (it may read them); later prints append.
      await this.host.writeFile(key.slice(1), o.data, o.append);
      o.data = '';
      o.append = true;
    }
  }

  // ---- statements ----
  async block(body: Stmt[]): Promise<void> {
    for (const s of body) await this.exec(s);
  }
  async exec(s: Stmt): Promise<void> {
    switch (s.k) {
      case 'expr': await this.eval(s.e); return;
      case 'print': {
        const vals = s.args.length === 0 ? [input(this.record)] : await this.values(s.args);
        const text = vals.map((v) => this.str(v, 'OFMT')).join(this.str(this.globals.get('OFS')!)) + this.str(this.globals.get('ORS')!);
        return this.emit(text, s.redir);
      }
      case 'printf': {
        const vals = await this.values(s.args);
        const fmt = this.str(vals[0] ?? '');
        const r = awkSprintf(fmt, vals.slice(1), (v) => this.num(v), (v) => this.str(v));
        if ('error' in r) {
          // mawk's printf writes each piece as it converts it, so the text before the failed conversion reaches
          // stdout (a redirection's file is opened, but left unflushed when mawk stops).
          await this.emit(s.redir ? '' : r.partial, s.redir);
          throw new AwkRuntimeError(sprintfError(r, 'printf', fmt));
        }
        return this.emit(r.text, s.redir);
      }
      case 'if':
        if (this.bool(await this.eval(s.c))) await this.exec(s.then);
        else if (s.else) await this.exec(s.else);
        return;
      case 'while':
        while (this.bool(await this.eval(s.c))) if (await this.loopBody(s.body)) break;
        return;
      case 'do':
        do if (await this.loopBody(s.body)) break;
        while (this.bool(await this.eval(s.c)));
        return;
      case 'for':
        if (s.init) await this.exec(s.init);
        while (!s.c || this.bool(await this.eval(s.c))) {
          if (await this.loopBody(s.body)) break;
          if (s.step) await this.exec(s.step);
        }
        return;
      case 'forin':
        // mawk gives the loop variable each key as a string (C_STRING): `k < 5` compares as strings.
        for (const k of this.array(s.name).keys()) {
          await this.store(s.v, k);
          if (await this.loopBody(s.body)) break;
        }
        return;
      case 'block': return this.block(s.body);
      case 'next': throw new Next();
      case 'nextfile': throw new NextFile();
      case 'break': throw new Break();
      case 'continue': throw new Continue();
      case 'exit': throw new Exit(s.e ? Math.trunc(this.num(await this.eval(s.e))) : -1);
      case 'return': throw new Return(s.e ? await this.eval(s.e) : UNINIT);
      case 'delete':
        if (s.subs) this.array(s.name).delete(await this.key(s.subs));
        else this.array(s.name).clear();
        return;
      case 'getline': await this.eval(s.e); return;
    }
  }
  /** Runs a loop body; true when it broke out. */
  private async loopBody(body: Stmt): Promise<boolean> {
    if (++this.iterations > this.limits.iterations) throw new AwkRuntimeError(`iteration limit exceeded (${this.limits.iterations})`);
    if (this.limits.signal?.aborted) throw new AwkRuntimeError('aborted');
    try {
      await this.exec(body);
    } catch (e) {
      if (e instanceof Break) return true;
      if (e instanceof Continue) return false;
      throw e;
    }
    return false;
  }

  // ---- the program ----
  /** Runs BEGIN, the main loop and END; returns the exit status. */
  async runProgram(): Promise<number> {
    let status = 0;
    const rules = this.prog.rules;
    const mains = rules.filter((r) => !r.begin && !r.end);
    let exiting = false;
    const guard = async (f: () => Promise<void>) => {
      try {
        await f();
      } catch (e) {
        if (e instanceof Exit) {
          if (e.code >= 0) status = e.code;
          exiting = true;
        } else throw e;
      }
    };
    await guard(async () => {
      for (const r of rules) if (r.begin) await this.block(r.action ?? []);
    });
    const hasMain = mains.length > 0 || rules.some((r) => r.end);
    if (!exiting && hasMain) {
      await guard(async () => {
        for (let rec = await this.nextMain(); rec !== undefined; rec = await this.nextMain()) {
          this.setRecord(rec);
          try {
            for (const [k, r] of mains.entries()) if (await this.matches(r, k)) await (r.action ? this.block(r.action) : this.exec({ k: 'print', args: [] }));
          } catch (e) {
            if (e instanceof Next) continue;
            if (e instanceof NextFile) {
              this.skipFile();
              continue;
            }
            throw e;
          }
        }
      });
    }
    const ranEnd = exiting && !hasMain;
    if (!ranEnd) {
      exiting = false;
      await guard(async () => {
        for (const r of rules) if (r.end) await this.block(r.action ?? []);
      });
    }
    await this.flushAll();
    return status;
  }
  private async matches(r: { pattern?: Node; until?: Node }, k: number): Promise<boolean> {
    if (!r.pattern) return true;
    if (!r.until) return this.bool(await this.eval(r.pattern));
    if (this.ranges.get(k)) {
      if (this.bool(await this.eval(r.until))) this.ranges.set(k, false);
      return true;
    }
    if (!this.bool(await this.eval(r.pattern))) return false;
    this.ranges.set(k, !this.bool(await this.eval(r.until)));
    return true;
  }
}

export { input as inputValue };
