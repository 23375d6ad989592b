/**
 * What `node -e`/`node -p` code finds around it in the shell engine, where it runs in js-exec's QuickJS: a prelude
 * that gives it node's `process.stdout`/`process.stderr` (`write` without a newline), `process.stdin` (its data and
 * `end` events, async iteration, `fs.readFileSync(0)` and `/dev/stdin`), node's `process.argv` for `-e`
 * (`[execPath, ...args]`), `__filename`/`__dirname`/`module`/`exports`, `require` of a `.json` file, node's event loop
 * (timers, intervals and immediates that wait their time, the promise jobs after each callback, the process ending
 * when nothing is left: patches/just-bash/js-exec-event-loop.mjs), node's report of an uncaught exception or an
 * unhandled rejection (status 1; node-promises.ts), `process.exitCode`, and `console.log`/`console.dir`/`console.table`/
 * `util.format`/`util.inspect` text made by Node's own util and console modules (the worker's, through the
 * js-exec-node-inspect patch) from a description of the values: plain objects, arrays, Map, Set, Date, RegExp, Buffer,
 * functions, classes and their instances, cycles. What it does not reproduce byte for byte is refused loudly (exit 2,
 * naming `--exec sandbox`) when the code reaches it: printing an Error (its stack), a Promise, a typed array, an async
 * function, an object a module returned (js-exec's, not node's: a Stats), `console.group`/`time`/`count`/`trace`; a
 * module js-exec lacks (http, readline…; crypto's digests, HMACs and random bytes are node's own, through the
 * js-exec-worker-crypto patch), a member of `process` or of a module that js-exec lacks, a relative
 * `.js` module, `import`, a Node global js-exec lacks (`TextEncoder`, `structuredClone`…).
 * @see https://nodejs.org/api/cli.html#-e---eval-script, https://nodejs.org/api/util.html#utilformatformat-args,
 * https://nodejs.org/api/util.html#utilinspectobject-options
 */
import { KERNEL_RELEASE } from './proc.ts';
import { LINUX_ERRNO } from './linux-errno.ts';
import { MACHINE_ARCH } from './sysinfo-commands.ts';
import { NODE_FS_SOURCE } from './node-fs-source.ts';

/** The text `node` prints for a refusal: what the code used, and `hint` (where it runs as is: `--exec sandbox`). */
export const refusalText = (what: string, hint: string): string => `node: ${what} is not available in the shell engine; ${hint}\n`;

/**
 * A static refusal for code that node would run and js-exec cannot: `import` (a static import statement, which node
 * -e refuses in a CommonJS script anyway, or a dynamic `import()`). Returns the refusal text, or undefined.
 */
export function staticRefusal(code: string, hint: string): string | undefined {
  if (/(^|[;\n{}])\s*import\s*[\w{*'"]|\bimport\s*\(/.test(code)) return refusalText('import (ES modules)', hint);
  return undefined;
}

/** Node globals js-exec's context lacks: code that reaches one is refused. */
const MISSING_GLOBALS = ['TextEncoder', 'TextDecoder', 'structuredClone', 'performance', 'AbortController', 'AbortSignal', 'Blob', 'BroadcastChannel', 'MessageChannel', 'WebAssembly', 'crypto', 'Intl'];

/**
 * The prelude's report of an uncaught exception or an unhandled rejection, as node prints it (src/node_errors.cc
 * GetErrorSource and lib/internal/process/promises.js): `[eval]:LINE` (or the script's path), the source line, a
 * caret, a blank line, the error's stack in V8's words (`at [eval]:1:7`, `at f (/path/f.js:2:9)`), its own
 * properties, a blank line and `Node.js VERSION`; then status 1. QuickJS's frames are mapped to the program's lines
 * and to V8's columns (the callee's name or `new` of a call, the property of an access); the caret of a `throw`
 * statement stands under `throw`, of a rejection under where its error was made.
 * @deviation node's own frames (`at runScriptInThisContext (node:internal/vm:…)`…) are not printed, nor a frame's
 * receiver (`Object.method`, `async f`; a timer's callback is named as V8 names it); a thrown value that is not an Error is printed without
 * its place (QuickJS keeps none); QuickJS's messages are given V8's words for the common ones only.
 */
const NODE_FATAL = String.raw`
const SOURCE_LINES = SOURCE.split('\n');
const WHERE = FILE === '' ? '[eval]' : FILE;
const codeLine = (n) => n - (g.__spzCodeAt || 1) + 1;
const sourceFrames = (stack) => String(stack || '').split('\n').map((l) => /^\s*at (.*?) \((.*):(\d+):(\d+)\)$/.exec(l)).filter((m) => m && m[2] === '-c')
  .map((m) => ({ name: m[1], line: codeLine(Number(m[3])), col: Number(m[4]) })).filter((f) => f.line >= 1 && f.line <= SOURCE_LINES.length);
const v8Column = (line, col) => {
  const text = SOURCE_LINES[line - 1] || '';
  let i = col - 1;
  if (text[i] === '(') {
    let j = i;
    while (j > 0 && text[j - 1] === ' ') j--;
    let k = j;
    while (k > 0 && /[\w$]/.test(text[k - 1])) k--;
    if (k < j) { i = k; const m = /new\s+(?:[\w$]+\s*\.\s*)*$/.exec(text.slice(0, k)); if (m) i = m.index; }
  } else if (text[i] === '.' && /[\w$#]/.test(text[i + 1] || '')) i++;
  else if (text[i] === '?' && text[i + 1] === '.') i += 2;
  return i + 1;
};
const v8Message = (e, frame) => {
  const msg = String(e.message);
  let m;
  if ((m = /^cannot read property '(.*)' of (null|undefined)$/.exec(msg))) return "Cannot read properties of " + m[2] + " (reading '" + m[1] + "')";
  if ((m = /^cannot set property '(.*)' of (null|undefined)$/.exec(msg))) return "Cannot set properties of " + m[2] + " (setting '" + m[1] + "')";
  if ((m = /^'(.*)' is not defined$/.exec(msg))) return m[1] + ' is not defined';
  if (msg === 'not a function' && frame) {
    const text = SOURCE_LINES[frame.line - 1] || '';
    const callee = text[frame.col - 1] === '(' ? /([\w$][\w$.]*)\s*$/.exec(text.slice(0, frame.col - 1)) : null;
    if (callee) return callee[1] + ' is not a function';
  }
  return msg;
};
const frameText = (f) => {
  let name = f.name === '<eval>' ? (FILE === '' ? '' : 'Object.<anonymous>') : f.name === '<anonymous>' ? '' : f.name;
  // V8 names a timer's callback by the object that holds it (timer._onTimeout, immediate._onImmediate)
  if (f.receiver === 'Timeout') name = name ? 'Timeout.' + name + ' [as _onTimeout]' : 'Timeout._onTimeout';
  else if (f.receiver === 'Immediate') name = 'Immediate.' + (name || '<anonymous>');
  const at = WHERE + ':' + f.line + ':' + v8Column(f.line, f.col);
  return '    at ' + (name ? name + ' (' + at + ')' : at);
};
const trailer = () => '\nNode.js ' + proc.version + '\n';
const propsText = (e) => {
  const keys = Object.keys(e).filter((k) => k !== 'stack' && k !== 'message');
  return keys.length === 0 ? '' : ' {\n' + keys.map((k) => '  ' + (/^[A-Za-z_$][\w$]*$/.test(k) ? k : nodeText('inspect', {}, [k])) + ': ' + nodeText('inspect', {}, [e[k]]).split('\n').join('\n  ')).join(',\n') + '\n}';
};
const fatal = (e, fromPromise, receiver) => {
  let text;
  if (e instanceof Error) {
    const frames = sourceFrames(e.stack);
    if (receiver && frames.length > 0) frames[frames.length - 1].receiver = receiver;
    const top = frames[0];
    let head = '';
    if (top) {
      const line = SOURCE_LINES[top.line - 1];
      let caret = v8Column(top.line, top.col) - 1;
      if (!fromPromise) { const t = line.lastIndexOf('throw', caret); if (t >= 0 && /^throw\b/.test(line.slice(t))) caret = t; }
      head = WHERE + ':' + top.line + '\n' + line + '\n' + ' '.repeat(caret) + '^\n\n';
    }
    const message = v8Message(e, top);
    // node's AssertionError names its code in the stack's first line
    const name = String(e.name) + (e instanceof AssertionError ? ' [ERR_ASSERTION]' : '');
    text = head + (message === '' ? name : name + ': ' + message) + frames.map((f) => '\n' + frameText(f)).join('') + propsText(e) + '\n';
  } else if (fromPromise) {
    text = "node:internal/process/promises:389\n      new UnhandledPromiseRejection(reason);\n      ^\n\nUnhandledPromiseRejection: This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason \"" + nodeText('inspect', {}, [e]) + "\"." + " {\n  code: 'ERR_UNHANDLED_REJECTION'\n}\n";
  } else if (typeof e === 'string') {
    text = e + '\n(Use ` + '`' + String.raw`node --trace-uncaught ...` + '`' + String.raw` to show where the exception was thrown)\n';
  } else {
    text = nodeText('inspect', {}, [e]) + '\n';
  }
  w(2, text + trailer());
  realExit(1);
};
g.__spzFatal = fatal;
`;

/**
 * node's `assert` module (`require('assert')`, `node:assert`, `assert/strict`, `assert.strict`) for the prelude: its
 * AssertionError (`code` ERR_ASSERTION, `generatedMessage`, `actual`, `expected`, `operator`) with node's own message,
 * made by the worker's real `node:assert` on the described values (the js-exec-node-inspect patch, `fn: "assert"`):
 * `ok`, `equal`, `notEqual`, `strictEqual`, `notStrictEqual`, `deepEqual`, `deepStrictEqual` and their `not` forms,
 * `throws`, `doesNotThrow`, `rejects`, `doesNotReject`, `match`, `doesNotMatch`, `fail`, `ifError`. The deep
 * comparisons of functions, symbols or class instances (which the description cannot carry as themselves), a failed
 * `assert.ok` without a message in a script file (node quotes the call's source), and an object or validation function
 * `throws` does not match, are refused loudly.
 * @see https://nodejs.org/api/assert.html
 */
const NODE_ASSERT = String.raw`
const inspectText = (v) => nodeText('inspect', {}, [v]);
class AssertionError extends Error {
  constructor(o) {
    super(String(o.message));
    this.generatedMessage = !!o.generated;
    this.code = 'ERR_ASSERTION';
    this.actual = o.actual;
    this.expected = o.expected;
    this.operator = o.operator;
  }
  toString() { return 'AssertionError [ERR_ASSERTION]: ' + this.message; }
}
Object.defineProperty(AssertionError.prototype, 'name', { value: 'AssertionError', writable: true, configurable: true });
const OPERATORS = { equal: '==', notEqual: '!=', strictEqual: 'strictEqual', notStrictEqual: 'notStrictEqual', deepEqual: 'deepEqual', notDeepEqual: 'notDeepEqual', deepStrictEqual: 'deepStrictEqual', notDeepStrictEqual: 'notDeepStrictEqual' };
const nodeAssert = (op, args) => nodeText('assert', { op }, args);
const raise = (message, userMessage, fields) => {
  if (userMessage instanceof Error) throw userMessage;
  throw new AssertionError({ message: userMessage === undefined ? message : userMessage, generated: userMessage === undefined, ...fields });
};
const compare = (op, verdict) => (actual, expected, message) => {
  const deep = verdict === undefined;
  if (deep && /"\$":"(f|y)"|"c":/.test(JSON.stringify(describe([actual, expected])))) refuse('assert.' + op + ' of functions, symbols or class instances');
  if (!deep && verdict(actual, expected)) return;
  if (message instanceof Error) throw message;
  // The message is the host's node's; node 24 ends a deep-equal diff with a newline node 20 and 22 do not write.
  let text = nodeAssert(op, message === undefined ? [actual, expected] : [actual, expected, String(message)]);
  if (/^Expected values to be (strictly|loosely) deep-equal:/.test(text)) text = text.replace(/\n$/, '');
  if (text === '') { if (deep) return; refuse('assert.' + op + ' of these values'); }
  throw new AssertionError({ message: text, generated: message === undefined, actual, expected, operator: OPERATORS[op] });
};
const looseEqual = (a, b) => a == b || (a !== a && b !== b);
const ok = (...args) => {
  if (args.length === 0) raise('No value argument passed to ' + '\x60assert.ok()\x60', undefined, { actual: undefined, expected: true, operator: '==' });
  const [value, message] = args;
  if (value) return;
  if (message === undefined && FILE !== '') refuse("a failed assert.ok without a message in a script file (node quotes the call's source)");
  raise(inspectText(value) + ' == true', message, { actual: value, expected: true, operator: '==' });
};
const matches = (actual, expected, message, operator) => {
  if (expected === undefined) return;
  if (expected instanceof RegExp) {
    const str = String(actual);
    if (expected.test(str)) return;
    raise('The input did not match the regular expression ' + inspectText(expected) + '. Input:\n\n' + inspectText(str) + '\n', message, { actual, expected, operator });
  }
  if (typeof expected === 'function') {
    if (expected.prototype !== undefined && actual instanceof expected) return;
    if (Error.isPrototypeOf(expected) || expected === Error) {
      if (actual instanceof Error) raise('The error is expected to be an instance of "' + expected.name + '". Received "' + (actual.constructor && actual.constructor.name) + '"\n\nError message:\n\n' + actual.message, message, { actual, expected, operator });
      refuse('assert.' + operator + ' of a thrown value that is not an Error');
    }
    if (expected.call({}, actual) === true) return;
    refuse('assert.' + operator + ' with a validation function that does not return true');
  }
  if (expected && typeof expected === 'object') {
    for (const k of Object.keys(expected)) {
      const want = expected[k], got = actual == null ? undefined : actual[k];
      const same = want instanceof RegExp && typeof got === 'string' ? want.test(got) : nodeAssert('deepStrictEqual', [got, want]) === '';
      if (!same) refuse('assert.' + operator + ' with an object the error does not match');
    }
  }
};
const throws = (fn, expected, message) => {
  if (typeof expected === 'string') { message = expected; expected = undefined; }
  try { fn(); } catch (e) { matches(e, expected, message, 'throws'); return; }
  const name = typeof expected === 'function' && expected.name ? ' (' + expected.name + ')' : '';
  raise('Missing expected exception' + name + '.', message === undefined ? undefined : 'Missing expected exception' + name + ': ' + message, { actual: undefined, expected, operator: 'throws' });
};
const doesNotThrow = (fn, expected, message) => {
  if (typeof expected === 'string') { message = expected; expected = undefined; }
  try { fn(); } catch (e) {
    if (typeof expected === 'function' && expected.prototype !== undefined && !(e instanceof expected)) throw e;
    throw new AssertionError({ message: 'Got unwanted exception' + (message ? ': ' + message : '.') + '\nActual message: "' + (e && e.message) + '"', generated: !message, actual: e, expected, operator: 'doesNotThrow' });
  }
};
const rejects = async (p, expected, message) => {
  if (typeof expected === 'string') { message = expected; expected = undefined; }
  try { await (typeof p === 'function' ? p() : p); } catch (e) { matches(e, expected, message, 'rejects'); return; }
  const name = typeof expected === 'function' && expected.name ? ' (' + expected.name + ')' : '';
  raise('Missing expected rejection' + name + '.', message === undefined ? undefined : 'Missing expected rejection' + name + ': ' + message, { actual: undefined, expected, operator: 'rejects' });
};
const doesNotReject = async (p, expected, message) => {
  if (typeof expected === 'string') { message = expected; expected = undefined; }
  try { await (typeof p === 'function' ? p() : p); } catch (e) {
    throw new AssertionError({ message: 'Got unwanted rejection' + (message ? ': ' + message : '.') + '\nActual message: "' + (e && e.message) + '"', generated: !message, actual: e, expected, operator: 'doesNotReject' });
  }
};
const match = (not) => (string, regexp, message) => {
  if (typeof string === 'string' && regexp.test(string) !== not) return;
  raise(typeof string !== 'string' ? 'The "string" argument must be of type string. Received type ' + typeof string + ' (' + inspectText(string) + ')' : (not ? 'The input was expected to not match the regular expression ' : 'The input did not match the regular expression ') + inspectText(regexp) + '. Input:\n\n' + inspectText(string) + '\n', message, { actual: string, expected: regexp, operator: not ? 'doesNotMatch' : 'match' });
};
const makeAssert = (strict) => {
  const a = (...args) => ok(...args);
  const eq = compare('equal', looseEqual), ne = compare('notEqual', (x, y) => !looseEqual(x, y));
  const seq = compare('strictEqual', Object.is), sne = compare('notStrictEqual', (x, y) => !Object.is(x, y));
  const deq = compare('deepEqual'), dne = compare('notDeepEqual'), dseq = compare('deepStrictEqual'), dsne = compare('notDeepStrictEqual');
  Object.assign(a, {
    ok, AssertionError, throws, doesNotThrow, rejects, doesNotReject, match: match(false), doesNotMatch: match(true),
    strictEqual: seq, notStrictEqual: sne, deepStrictEqual: dseq, notDeepStrictEqual: dsne,
    equal: strict ? seq : eq, notEqual: strict ? sne : ne, deepEqual: strict ? dseq : deq, notDeepEqual: strict ? dsne : dne,
    fail: (message) => raise('Failed', message, { actual: undefined, expected: undefined, operator: 'fail' }),
    ifError: (v) => { if (v !== null && v !== undefined) throw new AssertionError({ message: 'ifError got unwanted exception: ' + (v && typeof v === 'object' && typeof v.message === 'string' ? v.message : inspectText(v)), generated: false, actual: v, expected: null, operator: 'ifError' }); },
  });
  return a;
};
const assertModule = makeAssert(false);
const strictAssert = makeAssert(true);
assertModule.strict = strictAssert;
strictAssert.strict = strictAssert;
`;

/**
 * The JavaScript put before `code` (see the module doc). `stdin`: the command's stdin (latin-1 bytes as a string,
 * decoded here as UTF-8); `args`: the arguments after the code (node's `process.argv[1…]`); `hint`: the refusals' advice;
 * `file`: the absolute path of the script `node FILE` runs (its `__filename`, `__dirname` and `module.filename`;
 * absent for `-e`/`-p`, whose are `[eval]` and `.`); `marker`: the tag before each stderr write (node-streams.ts;
 * empty: none); `code`: the program's source, whose lines an uncaught error's report shows; `print`: `node -p`, whose
 * completion value is printed at the end.
 */
export function nodePrelude(stdin: string, args: readonly string[], hint: string, file?: string, marker = '', code = '', print = false): string {
  const input = JSON.stringify(Buffer.from(stdin, 'latin1').toString('utf8'));
  return `(() => {
const SOURCE = ${JSON.stringify(code)}, FILE = ${JSON.stringify(file ?? '')}, PRINT = ${print};
const g = globalThis, rawWrite = g.__spzWrite, realExit = process.exit;
// Each write to stderr carries how much stdout came before it (node-streams.ts): where the two meet, node's
// synchronous writes arrive in program order.
const MARK = ${JSON.stringify(marker)};
let written = 0;
const w = (fd, s) => { if (fd === 2) { if (s !== '') rawWrite(2, MARK === '' ? s : MARK + written + ';' + s.length + '\u0007' + s); } else { written += s.length; rawWrite(1, s); } };
const refuse = (what) => { w(2, ${JSON.stringify(refusalText('WHAT', hint))}.replace('WHAT', what)); realExit(2); throw new Error('refused'); };
g.__spzRefuse = refuse;
const input = ${input};
// node's timers: each due at an absolute time (Date.now() + delay; a delay under 1 or over 2^31-1 is 1, as node's), run
// one per turn of the event loop (g.__spzTurn below), in due order then creation order; an interval is due again its
// delay after it ran. Each returns node's Timeout (or Immediate) object: ref/unref/hasRef/refresh, its id as a primitive.
const timers = [];
let seq = 0;
class Timeout { constructor(t) { this._t = t; } ref() { this._t.ref = true; return this; } unref() { this._t.ref = false; return this; } hasRef() { return this._t.ref; } refresh() { this._t.at = Date.now() + this._t.ms; return this; } [Symbol.toPrimitive]() { return this._t.id; } }
class Immediate extends Timeout {}
const addTimer = (fn, ms, args, repeat, immediate) => {
  if (typeof fn !== 'function') throw Object.assign(new TypeError('The "callback" argument must be of type function. Received ' + (fn === undefined ? 'undefined' : fn === null ? 'null' : 'type ' + typeof fn + ' (' + String(fn) + ')')), { code: 'ERR_INVALID_ARG_TYPE' });
  let delay = Number(ms);
  if (!(delay >= 1 && delay <= 2147483647)) delay = 1;
  if (immediate) delay = 0;
  const t = { id: ++seq, ms: delay, at: Date.now() + delay, order: seq, fn, args, repeat, ref: true };
  timers.push(t);
  const handle = immediate ? new Immediate(t) : new Timeout(t);
  foreign.add(handle);
  return handle;
};
g.setTimeout = (fn, ms, ...args) => addTimer(fn, ms, args, false, false);
g.setImmediate = (fn, ...args) => addTimer(fn, 0, args, false, true);
g.setInterval = (fn, ms, ...args) => addTimer(fn, ms, args, true, false);
g.clearTimeout = g.clearImmediate = g.clearInterval = (h) => { const id = h instanceof Timeout ? h._t.id : Number(h); const k = timers.findIndex((t) => t.id === id); if (k >= 0) timers.splice(k, 1); };
g.queueMicrotask = (fn) => { Promise.resolve().then(fn); };
const text = (v) => (typeof v === 'string' ? v : String(v));
const stream = (fd) => ({ write(s, enc, cb) { w(fd, text(s)); (typeof enc === 'function' ? enc : cb)?.(); return true; }, end(s) { if (s != null) this.write(s); }, isTTY: false, columns: undefined, on() { return this; }, once() { return this; }, fd });
const handlers = {};
let encoding;
const chunk = () => (encoding ? input : Buffer.from(input));
const stdinObj = { fd: 0, isTTY: false, setEncoding(e) { encoding = e || 'utf8'; return this; }, resume() { return this; }, pause() { return this; },
  on(ev, fn) { (handlers[ev] ??= []).push(fn); return this; }, once(ev, fn) { return this.on(ev, fn); }, read() { if (this.__read) return null; this.__read = true; return input === '' ? null : chunk(); },
  pipe(dest) { handlers.__pipe = dest; return dest; }, [Symbol.asyncIterator]() { let done = input === ''; return { next: async () => (done ? { done: true, value: undefined } : ((done = true), { done: false, value: chunk() })) }; } };
const proc = g.process;
proc.stdout = stream(1);
proc.stderr = stream(2);
proc.stdin = stdinObj;
proc.argv = ['/usr/bin/node', ...${JSON.stringify(args)}];
proc.argv0 = 'node';
proc.execPath = '/usr/bin/node';
// node runs the nextTick queue before promise jobs once the main script ends.
const ticks = [];
let mainDone = false;
proc.nextTick = (fn, ...a) => { if (mainDone) Promise.resolve().then(() => fn(...a)); else ticks.push(() => fn(...a)); };
proc.exitCode = undefined;
proc.exit = (code) => realExit(code === undefined ? (proc.exitCode ?? 0) : code);
const PROCESS_MEMBERS = ['on', 'once', 'off', 'emit', 'hrtime', 'memoryUsage', 'uptime', 'kill', 'pid', 'ppid', 'umask', 'getuid', 'getgid', 'geteuid', 'chdir', 'title', 'release', 'config', 'features', 'emitWarning', 'abort', 'cpuUsage', 'resourceUsage', 'report', 'binding', 'mainModule', 'channel', 'send', 'connected', 'allowedNodeEnvironmentFlags'];
g.process = new Proxy(proc, { get(t, k) { if (typeof k === 'string' && !(k in t) && PROCESS_MEMBERS.includes(k)) refuse('process.' + k); return t[k]; } });
for (const name of ${JSON.stringify(MISSING_GLOBALS)}) if (!(name in g)) Object.defineProperty(g, name, { configurable: true, get() { return refuse(name); } });
const fs = g.require('fs');
const readFile = fs.readFileSync;
fs.readFileSync = function (file, opts) { if (file === 0 || file === '/dev/stdin') { const e = typeof opts === 'string' ? opts : opts?.encoding; return e ? input : Buffer.from(input); } return readFile.apply(this, arguments); };
// readdirSync(dir, { withFileTypes: true }) gives Dirent objects (node's Stats come from node-fs-source.ts).
const readdir = fs.readdirSync;
fs.readdirSync = function (dir, opts) {
  const o = typeof opts === 'object' && opts ? opts : {};
  const list = (d) => readdir.call(this, d, typeof opts === 'object' && opts ? { ...opts, withFileTypes: false, recursive: false } : opts);
  const dirent = (parent, name) => { const s = fs.lstatSync(parent.replace(/[/]+$/, '') + '/' + name); return { name, parentPath: parent, path: parent, isFile: s.isFile, isDirectory: s.isDirectory, isSymbolicLink: s.isSymbolicLink, isFIFO: s.isFIFO, isSocket: s.isSocket, isBlockDevice: s.isBlockDevice, isCharacterDevice: s.isCharacterDevice }; };
  if (!o.recursive) { const names = list(dir); return o.withFileTypes ? names.map((name) => dirent(String(dir), name)) : names; }
  // node 20's recursive listing: breadth first, each directory's entries then its subdirectories' (a link to a
  // directory is followed), names relative to dir.
  const { join, relative } = realRequire('path');
  const base = String(dir), out = [], queue = [base];
  for (let i = 0; i < queue.length; i++) {
    for (const name of list(queue[i])) {
      const full = join(queue[i], name);
      out.push(o.withFileTypes ? dirent(queue[i], name) : relative(base, full));
      let isDir = false;
      try { isDir = fs.statSync(full).isDirectory(); } catch (e) {}
      if (isDir) queue.push(full);
    }
  }
  return out;
};
// js-exec's fs errors carry only a message, with the path hidden ('<path>'); node's say the path the code gave and
// carry code, errno (Linux's, negative), syscall and path, which code tests (\`e.code === 'ENOENT'\`).
const FS_ERRNO = ${JSON.stringify(Object.fromEntries(LINUX_ERRNO.map(([name, number]) => [name, number])))};
const FS_SYSCALLS = { readFileSync: 'open', writeFileSync: 'open', appendFileSync: 'open', openSync: 'open', readdirSync: 'scandir', statSync: 'stat', lstatSync: 'lstat', mkdirSync: 'mkdir', unlinkSync: 'unlink', rmdirSync: 'rmdir', renameSync: 'rename', copyFileSync: 'copyfile', readlinkSync: 'readlink', chmodSync: 'chmod', accessSync: 'access', linkSync: 'link', symlinkSync: 'symlink', utimesSync: 'utime', truncateSync: 'open', rmSync: 'rm', mkdtempSync: 'mkdtemp' };
const fsError = (e, syscall, args) => {
  if (e && (e.syscall || /^ERR_/.test(String(e.code)))) return e;
  const m = /^([A-Z]+): ([^,]*), ([a-z]+)/.exec(String(e && e.message));
  if (!m || typeof args[0] !== 'string') return e;
  const read = m[3] === 'read', both = ['rename', 'copyfile', 'link', 'symlink'].includes(syscall);
  const err = new Error(m[1] + ': ' + m[2] + ', ' + (read ? 'read' : syscall + " '" + args[0] + "'" + (both ? " -> '" + args[1] + "'" : '')));
  return Object.assign(err, { errno: -(FS_ERRNO[m[1]] || 0), code: m[1], syscall: read ? 'read' : syscall }, read ? {} : { path: args[0] }, both && !read ? { dest: args[1] } : {});
};
${NODE_FS_SOURCE}
for (const [name, syscall] of Object.entries(FS_SYSCALLS)) {
  const real = fs[name];
  if (typeof real !== 'function') continue;
  fs[name] = function (...args) { try { return real.apply(this, args); } catch (e) { throw fsError(e, syscall, args); } };
  // The callback form (js-exec has none): the same call, its result or error handed to the callback after the
  // running code, as node's thread pool does.
  fs[name.slice(0, -4)] = function (...args) {
    const done = args.pop();
    if (typeof done !== 'function') refuse('fs.' + name.slice(0, -4) + ' without a callback');
    g.setImmediate(() => { let result; try { result = fs[name](...args); } catch (e) { done(e); return; } done(null, result); });
  };
}
// fs.promises and require('fs/promises'): the same calls as promises, with node's errors.
// (fs.promises.open answers a FileHandle, which this fs does not have: it is refused, not a descriptor number.)
const fsPromises = Object.assign({}, fs.promises, Object.fromEntries(Object.keys(FS_SYSCALLS).filter((n) => typeof fs[n] === 'function' && n !== 'openSync').map((n) => [n.slice(0, -4), (...args) => new Promise((resolve) => resolve(fs[n](...args)))])));
fs.promises = fsPromises;
const realRequire = g.require;
// What a module's function returns is js-exec's object, not node's (a Stats is a plain object there): printing one is
// refused. path's results are plain data in node too.
const mark = (r) => { if (r && typeof r === 'object' && !(typeof Buffer === 'function' && r instanceof Buffer)) { if (Array.isArray(r)) r.forEach(mark); else foreign.add(r); } return r; };
const marking = (name, f) => (typeof f === 'function' && name !== 'path' ? new Proxy(f, { apply: (fn, self, a) => mark(Reflect.apply(fn, self, a)) }) : f);
const guard = (name, mod) => (mod && typeof mod === 'object' ? new Proxy(mod, { get(t, k) { if (typeof k === 'string' && !(k in t) && !['then', 'default', '__esModule', 'toJSON', 'constructor'].includes(k)) refuse(name + '.' + k); return marking(name, t[k]); } }) : mod);
// fs.promises refuses what it lacks (open's FileHandle, watch…) as require('fs/promises') does.
fs.promises = guard('fs.promises', fsPromises);
// node's crypto: digests, HMACs and random bytes computed by the worker's own crypto (the js-exec-worker-crypto
// patch); bytes cross as base64.
const toBytes = (data, enc) => (typeof data === 'string' ? Buffer.from(data, enc || 'utf8') : Buffer.from(data.buffer ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : data));
const encodeDigest = (b64, enc) => {
  const bytes = Buffer.from(b64, 'base64');
  if (enc === undefined || enc === 'buffer') return bytes;
  if (enc === 'base64url') return b64.replace(/[+]/g, '-').replace(/[/]/g, '_').replace(/=+$/, '');
  if (enc === 'binary') return bytes.toString('latin1');
  return bytes.toString(enc);
};
const makeDigester = (alg, key) => {
  const parts = [];
  let done = false;
  const ask = (data) => g.__spzCrypto(JSON.stringify({ op: 'digest', alg: String(alg), key: key === undefined ? undefined : key.toString('base64'), data: data.toString('base64') }));
  // node refuses an unknown algorithm when the hash is made
  try { ask(Buffer.alloc(0)); } catch (e) { throw new Error(key === undefined ? 'Digest method not supported' : 'Invalid digest: ' + alg); }
  const self = {
    update(data, enc) { if (done) throw Object.assign(new Error('Digest already called'), { code: 'ERR_CRYPTO_HASH_FINALIZED' }); parts.push(toBytes(data, enc)); return self; },
    digest(enc) { if (done) throw Object.assign(new Error('Digest already called'), { code: 'ERR_CRYPTO_HASH_FINALIZED' }); done = true; return encodeDigest(ask(Buffer.concat(parts)), enc); },
    copy() { const c = makeDigester(alg, key); for (const p of parts) c.update(p); return c; },
  };
  foreign.add(self);
  return self;
};
const randomBytes = (size, cb) => { const b = Buffer.from(g.__spzCrypto(JSON.stringify({ op: 'random', size: Number(size) })), 'base64'); if (typeof cb === 'function') { setTimeout(() => cb(null, b), 0); return undefined; } return b; };
const cryptoModule = {
  createHash: (alg) => makeDigester(alg, undefined),
  createHmac: (alg, key) => makeDigester(alg, toBytes(key)),
  randomBytes,
  randomUUID: () => g.__spzCrypto(JSON.stringify({ op: 'uuid' })),
  randomInt(min, max, cb) {
    if (max === undefined || typeof max === 'function') { cb = max; max = min; min = 0; }
    const range = max - min;
    if (!(range > 0) || !Number.isSafeInteger(min) || !Number.isSafeInteger(max)) throw new RangeError('The value of "max" is out of range. It must be greater than the value of "min" (' + min + '). Received ' + max);
    const limit = 2 ** 48 - (2 ** 48 % range);
    let n;
    do n = parseInt(randomBytes(6).toString('hex'), 16); while (n >= limit);
    const value = min + (n % range);
    if (typeof cb === 'function') { setTimeout(() => cb(null, value), 0); return undefined; }
    return value;
  },
  getHashes: () => JSON.parse(g.__spzCrypto(JSON.stringify({ op: 'hashes' }))),
  timingSafeEqual(a, b) { const x = toBytes(a).toString('hex'), y = toBytes(b).toString('hex'); if (x.length !== y.length) throw new RangeError('Input buffers must have the same byte length'); return x === y; },
};
// node's os answers from the machine the shell describes (its files under /etc and /proc), not js-exec's fixed
// values (a home of /home/user, a host named sandbox, no CPUs, no memory).
const machineText = (path) => { try { return String(readFile(path, 'utf8')); } catch (e) { return ''; } };
const meminfoBytes = (key) => { const line = machineText('/proc/meminfo').split('\\n').find((l) => l.startsWith(key + ':')); return line ? Number(line.split(':')[1].trim().split(' ')[0]) * 1024 : 0; };
const cpuList = () => machineText('/proc/cpuinfo').split('\\n\\n').filter((b) => b.startsWith('processor')).map((b) => {
  const field = (k) => (b.split('\\n').find((l) => l.startsWith(k)) || '').split(':').slice(1).join(':').trim();
  return { model: field('model name'), speed: Math.floor(Number(field('cpu MHz')) || 0), times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } };
});
const osModule = Object.assign({}, realRequire('os'), {
  homedir: () => proc.env.HOME || '/home/sprite',
  hostname: () => machineText('/etc/hostname').trim() || 'localhost',
  release: () => ${JSON.stringify(KERNEL_RELEASE)},
  version: () => '#1 SMP',
  machine: () => ${JSON.stringify(MACHINE_ARCH)},
  cpus: cpuList,
  availableParallelism: () => cpuList().length || 1,
  totalmem: () => meminfoBytes('MemTotal'),
  freemem: () => meminfoBytes('MemAvailable'),
  uptime: () => Number(machineText('/proc/uptime').split(' ')[0]) || 0,
  loadavg: () => machineText('/proc/loadavg').split(' ').slice(0, 3).map(Number),
});
// Where node resolves a require from (the script's directory, or the working directory for -e), and its
// MODULE_NOT_FOUND error with the require stack it prints.
const requireDir = () => ${JSON.stringify(file === undefined ? '' : file.slice(0, file.lastIndexOf('/')) || '/')} || proc.cwd();
const moduleNotFound = (name) => { const stack = ${JSON.stringify(file ?? '')} || (proc.cwd().replace(/[/]$/, '') + '/[eval]'); return Object.assign(new Error("Cannot find module '" + name + "'\\nRequire stack:\\n- " + stack), { code: 'MODULE_NOT_FOUND', requireStack: [stack] }); };
g.require = (id) => {
  const name = String(id).replace(/^node:/, '');
  if (name === 'crypto') return guard(name, cryptoModule);
  if (name === 'assert') return assertModule;
  if (name === 'assert/strict') return strictAssert;
  if (name === 'fs/promises') return guard(name, fsPromises);
  if (name === 'os') return guard(name, osModule);
  if (/^[./]/.test(name)) {
    if (name.endsWith('.json')) return JSON.parse(readFile(name, 'utf8'));
    // node tries the name, then with .js, .json, .node, then as a directory (package.json, index.*): none is node's
    // MODULE_NOT_FOUND; one that exists is a module js-exec cannot load here.
    const path = name.startsWith('/') ? name : requireDir().replace(/[/]$/, '') + '/' + name;
    if (['', '.js', '.json', '.node', '.cjs', '/package.json', '/index.js', '/index.json'].some((ext) => { try { fs.statSync(path + ext); return true; } catch (e) { return false; } })) refuse("require('" + name + "') of a file");
    throw moduleNotFound(name);
  }
  let mod;
  try { mod = realRequire(id); } catch (e) {
    const message = String(e && e.message);
    if (/is not available in the js-exec sandbox/.test(message)) refuse("the module '" + name + "'");
    // A package: node looks for it in node_modules from the script's directory up; one found there cannot load here
    // (loud), none found is node's own MODULE_NOT_FOUND, with its require stack.
    if (/^Cannot find module /.test(message)) {
      const parts = requireDir().split('/').filter(Boolean);
      let found = '';
      for (let i = parts.length; i >= 0 && !found; i--) { const dir = '/' + parts.slice(0, i).join('/') + (i > 0 ? '/' : '') + 'node_modules/' + name.split('/')[0]; try { fs.statSync(dir); found = dir; } catch (err) {} }
      if (found) refuse("require('" + name + "') of a package in " + found);
      throw moduleNotFound(name);
    }
    throw e;
  }
  if (name === 'util') return guard(name, Object.assign(Object.create(mod), { format: (...a) => nodeText('format', {}, a), formatWithOptions: (o, ...a) => nodeText('format', o, a), inspect: (v, o) => nodeText('inspect', o, [v]) }));
  const guarded = guard(name, mod);
  if (guarded && (typeof guarded === 'object' || typeof guarded === 'function')) foreign.add(guarded);
  return guarded;
};
g.__filename = ${JSON.stringify(file ?? '[eval]')};
g.__dirname = ${JSON.stringify(file === undefined ? '.' : file.slice(0, file.lastIndexOf('/')) || '/')};
g.module = { exports: {}, id: ${JSON.stringify(file === undefined ? '[eval]' : '.')}, filename: g.__filename, loaded: false, children: [], paths: [] };
// node FILE's own module is require.main (the "run as a program" check); -e code has none.
if (${JSON.stringify(file !== undefined)}) g.require.main = g.module;
g.exports = g.module.exports;
// console.log's text is node's own util.format/util.inspect, run by the worker on a description of the values (the
// js-exec-node-inspect patch): plain data is described exactly; what node would print from internals js-exec does
// not have (an Error's stack, a Promise's state, a typed array, a module's own objects) is refused.
const foreign = new WeakSet();
const nativeFn = (f) => /\\[native code\\]\\s*\\}$/.test(Function.prototype.toString.call(f));
const BUILTINS = [Error, Map, Set, Date, RegExp, Promise, WeakMap, WeakSet, ArrayBuffer, Array, String, Number, Boolean];
const describe = (root) => {
  const ids = new Map();
  const props = (v, isArray) => {
    const out = [];
    for (const k of Reflect.ownKeys(v)) {
      const d = Object.getOwnPropertyDescriptor(v, k);
      if (!d.enumerable || (isArray && /^(0|[1-9][0-9]*)$/.test(k))) continue;
      if (typeof k === 'symbol') refuse("console.log of an object with symbol keys (node's util.inspect layout)");
      if (d.get || d.set) refuse("console.log of an object with a getter or setter (node's util.inspect layout)");
      out.push([k, d.value === v ? { $: 'ref', id: ids.get(v) } : enc(d.value)]);
    }
    return out;
  };
  const enc = (v) => {
    switch (typeof v) {
      case 'string': case 'boolean': return v;
      case 'number': return Number.isFinite(v) && !Object.is(v, -0) ? v : { $: 'n', v: Object.is(v, -0) ? '-0' : String(v) };
      case 'undefined': return { $: 'u' };
      case 'bigint': return { $: 'b', v: String(v) };
      case 'symbol': return { $: 'y', v: v.description };
    }
    if (v === null) return null;
    if (ids.has(v)) return { $: 'ref', id: ids.get(v) };
    const id = ids.size;
    ids.set(v, id);
    if (ids.size > 200000) refuse("console.log of an object this large (node's util.inspect layout)");
    if (foreign.has(v)) refuse("console.log of an object a module returned (node's util.inspect layout)");
    // node's own objects print with their internals ("Object [Math] {}", process, a module, "[Function: require] {…}").
    if ([g, g.process, console, g.require, g.module, g.Buffer].includes(v) || typeof v[Symbol.toStringTag] === 'string' && ![Map.prototype, Set.prototype].includes(Object.getPrototypeOf(v))) refuse("console.log of a module, process, console or global object (node's util.inspect layout)");
    const proto = Object.getPrototypeOf(v);
    if (typeof v === 'function') {
      const src = Function.prototype.toString.call(v);
      // node names their kind through constructors js-exec's worker hides ([AsyncFunction: f]).
      if (/^(async\\b|(function\\s*)?\\*)/.test(src)) refuse("console.log of an async or generator function (node's util.inspect layout)");
      const k = /^class\\b/.test(src) ? 'cls' : 'f';
      if (k === 'cls' && proto !== Function.prototype) refuse("console.log of a subclass (node's util.inspect layout)");
      return { $: 'f', id, name: v.name, k, p: props(v) };
    }
    if (proto === Array.prototype) {
      if (v.length > 1e6) refuse("console.log of an array this large (node's util.inspect layout)");
      const i = [];
      for (let k = 0; k < v.length; k++) i.push(k in v ? enc(v[k]) : { $: 'h' });
      return { $: 'a', id, n: v.length, i, p: props(v, true) };
    }
    if (proto === Map.prototype) return { $: 'm', id, e: [...v].map(([k, x]) => [enc(k), enc(x)]), p: props(v) };
    if (proto === Set.prototype) return { $: 's', id, e: [...v].map(enc), p: props(v) };
    if (proto === Date.prototype) return { $: 'd', id, v: v.getTime(), p: props(v) };
    if (proto === RegExp.prototype) return { $: 'r', id, s: v.source, f: v.flags, p: [] };
    if (typeof Buffer === 'function' && v instanceof Buffer) return { $: 'buf', id, v: v.toString('hex') };
    if (proto === null || proto === Object.prototype) return { $: 'o', id, np: proto === null, p: props(v) };
    const ctor = Object.prototype.hasOwnProperty.call(proto, 'constructor') ? proto.constructor : undefined;
    const builtin = ArrayBuffer.isView(v) || BUILTINS.some((B) => v instanceof B);
    if (typeof ctor === 'function' && ctor.prototype === proto && !nativeFn(ctor) && !builtin) return { $: 'o', id, c: ctor.name, p: props(v) };
    return refuse('console.log of ' + (typeof ctor === 'function' && ctor.name ? 'a value of class ' + ctor.name : 'this object') + " (node's util.inspect layout)");
  };
  return enc(root);
};
const nodeText = (fn, opts, args) => g.__spzNodeText(JSON.stringify({ fn, v: describe([opts, ...args]) }));
for (const [name, fd] of [['log', 1], ['info', 1], ['debug', 1], ['error', 2], ['warn', 2]]) console[name] = (...a) => w(fd, nodeText('format', {}, a) + '\\n');
console.dir = (v, opts) => w(1, nodeText('inspect', { customInspect: false, ...opts }, [v]) + '\\n');
console.table = (data, columns) => w(1, nodeText('table', {}, columns === undefined ? [data] : [data, columns]));
for (const name of ['group', 'groupCollapsed', 'groupEnd', 'time', 'timeEnd', 'timeLog', 'count', 'countReset', 'assert', 'trace', 'dirxml']) console[name] = () => refuse('console.' + name);
${NODE_FATAL}
${NODE_ASSERT}
// The event loop's turns (patches/just-bash/js-exec-event-loop.mjs calls one after the script and after each turn's
// promise jobs; it answers the milliseconds to wait before the next, or -1 when nothing is left). The first runs the
// nextTick queue (before any promise job, as node) and watches the script's completion value: a promise the last
// statement made and dropped, whose rejection nobody can handle. Later turns report an unhandled rejection, then emit
// stdin's events, then run the next due timer; an error thrown there is uncaught (node's report, status 1).
let turns = 0, stdinDone = false;
const dropped = [];
const guarded = (fn, receiver) => { try { fn(); } catch (e) { fatal(e, false, receiver); } };
g.__spzTurn = (completion) => {
  if (turns++ === 0) {
    mainDone = true;
    // node -p prints the script's value as soon as the script has run, before the nextTick queue
    if (PRINT) console.log(completion);
    guarded(() => { while (ticks.length > 0) ticks.shift()(); });
    if (!PRINT && g.__spzIsPromise(completion)) g.__spzWatch(completion, (e) => { dropped.push({ reason: e }); });
    return 0;
  }
  const rejection = dropped.shift() ?? g.__spzUnhandled();
  if (rejection) fatal(rejection.reason, true);
  const emit = (ev, ...a) => { for (const fn of handlers[ev] ?? []) fn(...a); };
  if (!stdinDone) {
    stdinDone = true;
    if (handlers.data || handlers.end || handlers.readable || handlers.__pipe) {
      guarded(() => {
        if (input !== '') { emit('data', chunk()); emit('readable'); if (handlers.__pipe) handlers.__pipe.write(input); }
        emit('end'); emit('close');
      });
      return 0;
    }
  }
  if (!timers.some((t) => t.ref)) {
    if (proc.exitCode !== undefined) realExit(proc.exitCode);
    return -1;
  }
  timers.sort((a, b) => a.at - b.at || a.order - b.order);
  const t = timers[0];
  const wait = t.at - Date.now();
  if (wait > 0) return wait;
  timers.shift();
  if (t.repeat) { t.at = Date.now() + t.ms; t.order = ++seq; timers.push(t); }
  guarded(() => t.fn(...t.args), t.ms === 0 ? 'Immediate' : 'Timeout');
  return 0;
};
})();
`;
}



/**
 * The whole program js-exec runs for node code `code`: the prelude ({@link nodePrelude}, with `opts`), then the code
 * on a line of its own inside `try` (an exception it throws is node's uncaught-exception report, status 1), so that
 * the code's lines keep their numbers relative to `__spzCodeAt`. With `opts.print` (`node -p`) the script's
 * completion value is printed once the script has run, as node prints it. Code run as an ES module (`opts.module`: it has a
 * top-level `await`, node-syntax.ts) is not put inside a block, where its declarations could not stand.
 */
export function nodeProgram(code: string, opts: { stdin: string; args: readonly string[]; hint: string; file?: string; marker?: string; module?: boolean; print?: boolean }): string {
  const head = nodePrelude(opts.stdin, opts.args, opts.hint, opts.file, opts.marker ?? '', code, opts.print === true);
  const at = head.split('\n').length + 1;
  return opts.module ? `${head}globalThis.__spzCodeAt = ${at};\n${code}\n` : `${head}globalThis.__spzCodeAt = ${at}; try {\n${code}\n} catch (e) { globalThis.__spzFatal(e, false); }\n`;
}
