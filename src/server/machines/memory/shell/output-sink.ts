/**
 * Streamed, byte-exact output for the `shell` engine. just-bash returns a script's output whole, and joins the
 * output of its statements as decoded text (so bytes that are not UTF-8 came out re-encoded). Here every top-level
 * command of a script is given redirections to two sink paths, and a filesystem wrapper turns writes to those paths
 * into output delivered at once, as the bytes the command produced. It owns the rewrite and the sink paths; it does
 * not own the process lifecycle (engine.ts) nor the filesystem itself (bash-fs.ts).
 * @see docs/fidelity.md "Per engine" (output); node_modules/just-bash/dist/encoding.d.ts (its byte/text model)
 */
import type { IFileSystem } from 'just-bash';
import { parseScript, serializeScript, type ScriptNode as Node } from './script-ast.ts';
import { deliverSliced } from './sliced-output.ts';
import { STREAMING_SHELL } from './shell-command.ts';
import { commandStringPlace, recoverSyntax } from './syntax-errors.ts';

import { SINK_DIR } from './sink-dir.ts';
import { shellTextBytes } from './shell-text.ts';

export { SINK_DIR };
/** The path a top-level command's stdout is redirected to; writes to it become the process's stdout. */
export const STDOUT_SINK = `${SINK_DIR}stdout`;
/** The path a top-level command's stderr is redirected to; writes to it become the process's stderr. */
export const STDERR_SINK = `${SINK_DIR}stderr`;

/** Where sink writes go, as bytes. */
export interface OutputSinks {
  stdout(data: Uint8Array): void;
  stderr(data: Uint8Array): void;
}

type Redirection = { type: 'Redirection'; fd: number | null; operator: string; target: { type: 'Word'; parts: Array<{ type: 'Literal'; value: string }> } };

const redirect = (fd: number | null, path: string): Redirection => ({
  type: 'Redirection',
  fd,
  // `>|`: the sinks are written even under `set -C` (noclobber), which is for the script's own files.
  operator: '>|',
  target: { type: 'Word', parts: [{ type: 'Literal', value: path }] },
});

/**
 * Rewrites `script` so that the output of each command reaches the sinks when that command ends. Every command of
 * a statement gets `2>STDERR_SINK` (with `tty`, `2>STDOUT_SINK`: one ordered stream), and the last command of each
 * pipeline also `>STDOUT_SINK`. They are put *before* the command's own redirections, so `echo x >&2`, `cmd 2>&1`
 * and `cmd >file` mean what they say. A compound command (loop, `if`, `case`, `{ …; }`, `( … )`) that ends its
 * pipeline and redirects nothing but its input is not redirected itself: the commands inside it are, so a loop
 * streams each iteration; so does a nested `sh -c '…'` in that position (`streamNestedShell`). Left as they are: background statements (`&`), function definitions, pipeline stages
 * joined with `|&`, command substitutions, a top-level `exec` that only redirects (but its `N>&1`/`N>&2` point at
 * the sinks: `pinDuplicates`), and everything after one that redirects stdout or stderr, or from the statement on
 * that holds such an `exec` inside a group or subshell (its output is then delivered when the script ends). A script that does not parse is returned unchanged (just-bash
 * then reports the syntax error itself).
 * @deviation Output is streamed per command, not per write: a command delivers its output when it ends, and the
 * output of a function call or of a compound command with output redirections when that call or command ends.
 */
export function streamTopLevel(script: string, tty: boolean): string {
  const ast = parseScript(script);
  if (!ast) return script;
  // just-bash's serializer moves the text after a here-doc operator on its line (`cat <<X | wc -l`, `cat <<'E' > f`)
  // behind the body, where it becomes body text: a script with a here-doc runs as written, its output at the end.
  if (hasHereDoc(ast)) return script;
  instrument(ast.statements, tty ? STDOUT_SINK : STDERR_SINK, true);
  return serializeScript(ast);
}

const INPUT_OPERATORS = new Set(['<', '<<', '<<-', '<<<']);

/** Whether any node below `root` is a here-doc redirection (`<<`, `<<-`). */
function hasHereDoc(root: unknown): boolean {
  if (Array.isArray(root)) return root.some(hasHereDoc);
  if (root === null || typeof root !== 'object') return false;
  const node = root as Node;
  if (node.type === 'Redirection' && (node.operator === '<<' || node.operator === '<<-')) return true;
  return Object.values(node).some(hasHereDoc);
}

/** Adds the sink redirections to the commands of `statements` (see `streamTopLevel`). */
function instrument(statements: Node[], errSink: string, topLevel: boolean): void {
  for (const statement of statements) {
    if (statement.background) continue;
    // An `exec` inside a compound command (`{ exec >log; …; }`, `( exec 2>err; … )`) changes where the commands after
    // it write, up to the end of the script or of that subshell: from this statement on nothing is redirected.
    if (topLevel && ((statement.pipelines as Node[] | undefined) ?? []).some((p) => ((p.commands as Node[] | undefined) ?? []).some((c) => c.type !== 'SimpleCommand' && nestedExecRedirect(c)))) return;
    for (const pipeline of (statement.pipelines as Node[] | undefined) ?? []) {
      const commands = (pipeline.commands as Node[] | undefined) ?? [];
      const pipeStderr = (pipeline.pipeStderr as boolean[] | undefined) ?? [];
      // A top-level `exec` that only redirects keeps its redirections for the rest of the script: sinks added to it
      // would become the script's own stdout and stderr, and a later `$(…)` would no longer capture its output.
      const execOnly = topLevel && isExecRedirectOnly(commands);
      if (execOnly) pinDuplicates(commands[0]!, errSink);
      commands.forEach((command, i) => {
        if (execOnly || command.type === 'FunctionDef' || !Array.isArray(command.redirections)) return;
        const own = command.redirections as Redirection[];
        // An assignment alone (`x=$(false)`) writes nothing of its own, but its `set -x` trace and its expansions'
        // messages go to the shell's stderr, the stderr sink (patches/just-bash/xtrace-written-at-once.mjs).
        if (command.type === 'SimpleCommand' && !command.name && own.length === 0) {
          command.redirections = [redirect(2, errSink)];
          return;
        }
        const last = i === commands.length - 1;
        // `[[ … ]]` and `(( … ))` hold no commands: they get the sinks themselves, so their `set -x` trace and their
        // messages arrive before what the next command writes.
        const bare = command.type === 'ConditionalCommand' || command.type === 'ArithmeticCommand';
        if (!bare && command.type !== 'SimpleCommand' && last && own.every((r) => INPUT_OPERATORS.has(r.operator) && (r.fd === null || r.fd === 0))) {
          instrumentInside(command, errSink);
          return;
        }
        if (last && command.type === 'SimpleCommand' && own.every((r) => INPUT_OPERATORS.has(r.operator))) streamNestedShell(command, errSink);
        const added: Redirection[] = [];
        if (last) added.push(redirect(null, STDOUT_SINK));
        if (!pipeStderr[i]) added.push(redirect(2, errSink));
        command.redirections = [...added, ...own];
      });
      // Commands after it would override where it sent stdout or stderr: they are left as they are, unless it only
      // opened other descriptors (`exec 3>&1`, `exec 4<file`).
      if (execOnly && redirectsOutput(commands[0]!)) return;
    }
  }
}

const SHELLS = new Set(['sh', 'bash', '/bin/sh', '/bin/bash', '/usr/bin/sh', '/usr/bin/bash']);
type Part = { type: string; value?: string };
const literal = (word: unknown): string | null => {
  const parts = (word as { parts?: Part[] } | null)?.parts;
  return parts?.length === 1 && parts[0]!.type === 'Literal' ? parts[0]!.value ?? null : null;
};

/**
 * A shell or a script run where its output goes to the sinks anyway (last in its pipeline, no output redirections
 * of its own) streams per command as well: a nested `sh -c '…'`/`bash -c '…'` gets its single-quoted script
 * instrumented here (`sh -c 'echo ready; sleep 1000'` inside a script); any other `bash`/`sh` (`bash FILE`,
 * `bash -c "$x"`) and a program named by a path outside the command directories (`./run.sh`) become
 * `STREAMING_SHELL NAME …`, which instruments the script it reads when it runs (shell-command.ts).
 */
function streamNestedShell(command: Node, errSink: string): void {
  const name = literal(command.name);
  if (name === null) return;
  if (SHELLS.has(name)) {
    if (streamLiteralScript(command, errSink)) return;
  } else if (!name.includes('/') || /^\/(usr\/)?bin\//.test(name)) return;
  command.args = [command.name, ...((command.args as unknown[] | undefined) ?? [])];
  command.name = { type: 'Word', parts: [{ type: 'Literal', value: STREAMING_SHELL }] };
}

/** The `sh -c '…'` case of {@link streamNestedShell}; false when the script is not one literal word. */
function streamLiteralScript(command: Node, errSink: string): boolean {
  const args = (command.args as Array<{ parts?: Part[] }> | undefined) ?? [];
  let i = 0;
  while (i < args.length && /^-[a-z]+$/.test(literal(args[i]) ?? '') && !literal(args[i])!.includes('c')) i++;
  if (!/^-[a-z]*c[a-z]*$/.test(literal(args[i]) ?? '')) return false;
  // A login shell reads its profile files before the script: the runtime form streams those too.
  if (args.slice(0, i + 1).some((a) => literal(a)!.includes('l'))) return false;
  const word = args[i + 1];
  const source = word ? quotedText(word.parts ?? []) : null;
  // A script that reads its own text (`$BASH_EXECUTION_STRING`) must see it as written: the runtime form streams it.
  if (source === null || source.includes('BASH_EXECUTION_STRING')) return false;
  // A script with a syntax error (a `)` that closes nothing, which the parser would drop) runs in the runtime form,
  // which meets the error as bash does.
  const ast = recoverSyntax(source, commandStringPlace) === null ? parseScript(source) : null;
  if (!ast) return false;
  instrument(ast.statements, errSink, true);
  const script = serializeScript(ast);
  // just-bash's serializer writes a single-quoted part as is: spell each `'` as an escaped one between quoted runs.
  word!.parts = script.split("'").flatMap((run, j) => [...(j > 0 ? [{ type: 'Escaped', value: "'" }] : []), { type: 'SingleQuoted', value: run }]);
  return true;
}

/**
 * The text of a word made only of quoted runs and escaped characters (`'a'"'"'b'\''c'` → `a'b'c`), which expand
 * to themselves; null when any part would expand (`$x`, `$(…)`, a glob).
 */
function quotedText(parts: Array<Part & { parts?: Part[] }>): string | null {
  let text = '';
  for (const part of parts) {
    if ((part.type === 'SingleQuoted' || part.type === 'Escaped') && typeof part.value === 'string') text += part.value;
    else if (part.type === 'DoubleQuoted' && part.parts?.every((p) => p.type === 'Literal')) text += part.parts.map((p) => p.value).join('');
    else return null;
  }
  return parts.length > 0 ? text : null;
}

/** Instruments every statement list inside a compound command, not crossing into words or function definitions. */
function instrumentInside(node: unknown, errSink: string): void {
  if (Array.isArray(node)) {
    if (node.length > 0 && node.every((n) => (n as Node | null)?.type === 'Statement')) instrument(node as Node[], errSink, false);
    else for (const item of node) instrumentInside(item, errSink);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const n = node as Node;
  if (n.type === 'Word' || n.type === 'FunctionDef' || n.type === 'Redirection') return;
  for (const value of Object.values(n)) instrumentInside(value, errSink);
}

/**
 * In a top-level `exec` that only redirects, `N>&1` and `N>&2` (N ≥ 3, before any redirection of 1 or 2 there) name
 * the script's own stdout and stderr: they become `N>|` the sink, so a later `$(…)` writing `>&N` reaches the
 * client as in bash (`exec 3>&1; x=$(echo progress >&3; echo value)`). just-bash resolves a duplicate when it is
 * written to, where inside `$(…)` descriptor 1 is the substitution's capture.
 */
function pinDuplicates(command: Node, errSink: string): void {
  const moved = new Set<number>();
  const redirections = command.redirections as Redirection[];
  redirections.forEach((r, i) => {
    const target = r.operator === '>&' && r.fd !== null && r.fd >= 3 ? literal(r.target) : null;
    if ((target === '1' || target === '2') && !moved.has(Number(target))) redirections[i] = redirect(r.fd, target === '1' ? STDOUT_SINK : errSink);
    for (const fd of fdsOf(r)) moved.add(fd);
  });
}

/** The descriptors a redirection sets (`&>` and a bare `>&word` set both 1 and 2). */
function fdsOf(r: Redirection): number[] {
  if (r.operator === '&>' || r.operator === '&>>' || (r.fd === null && r.operator === '>&' && !/^\d+-?$|^-$/.test(literal(r.target) ?? ''))) return [1, 2];
  return [r.fd ?? (INPUT_OPERATORS.has(r.operator) || r.operator === '<&' || r.operator === '<>' ? 0 : 1)];
}

/** Whether an `exec` sets its shell's stdout or stderr (so the commands after it write where it said). */
function redirectsOutput(command: Node): boolean {
  return (command.redirections as Redirection[]).some((r) => fdsOf(r).some((fd) => fd === 1 || fd === 2));
}

/** Whether a command below `node` (outside words and function bodies) is an `exec` that redirects stdout or stderr. */
function nestedExecRedirect(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(nestedExecRedirect);
  if (node === null || typeof node !== 'object') return false;
  const n = node as Node;
  if (n.type === 'Word' || n.type === 'FunctionDef' || n.type === 'Redirection') return false;
  if (n.type === 'SimpleCommand') return isExecRedirectOnly([n]) && redirectsOutput(n);
  return Object.values(n).some(nestedExecRedirect);
}

/** True for a pipeline that is just `exec` with redirections (it changes where every later command writes). */
function isExecRedirectOnly(commands: Node[]): boolean {
  if (commands.length !== 1) return false;
  const cmd = commands[0]!;
  const name = cmd.name as { parts?: Array<{ type: string; value?: string }> } | null | undefined;
  return cmd.type === 'SimpleCommand' && name?.parts?.length === 1 && name.parts[0]!.value === 'exec' && (cmd.args as unknown[]).length === 0;
}

/**
 * Wraps `fs` so that writes to `STDOUT_SINK`/`STDERR_SINK` go to `sinks` instead of a file, and the sink paths stat
 * as character devices. A string written with encoding `binary`/`latin1` is a byte string (one char per byte, how
 * just-bash writes `bytes` output); any other string is UTF-8 encoded text. With `tty` (a TTY exec), writes to
 * `/dev/tty` go to the terminal, the stdout sink, wherever the command's own output is redirected. Everything else
 * goes to `fs` unchanged.
 */
export function withOutputSinks(fs: IFileSystem, sinks: OutputSinks, tty = false): IFileSystem {
  const sinkOf = (path: string): ((data: Uint8Array) => void) | null =>
    path === STDOUT_SINK || (tty && path === '/dev/tty') ? sinks.stdout : path === STDERR_SINK ? sinks.stderr : null;
  const write = async (path: string, content: unknown, options: unknown, fallback: (...a: unknown[]) => Promise<void>) => {
    const sink = sinkOf(path);
    if (!sink) return fallback(path, content, options);
    if (typeof content === 'string') return deliverSliced(content, isByteString(options) ? 'latin1' : 'utf8', sink); // in slices: a 60 MiB `cat` never holds the loop
    const data = toBytes(content, options);
    if (data.length > 0) sink(data);
  };
  const device = { isFile: false, isDirectory: false, isSymbolicLink: false, mode: 0o20666, size: 0, mtime: new Date(0) };
  // One wrapper per method name, made on its first use, not a new bound function on every read: the interpreter
  // reads a method for each file operation it makes.
  const methods = new Map<PropertyKey, unknown>();
  return new Proxy(fs, {
    get(target, key, receiver) {
      const made = methods.get(key);
      if (made !== undefined) return made;
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const method = wrap(target, key, receiver, (value as (...a: unknown[]) => unknown).bind(target));
      methods.set(key, method);
      return method;
    },
  });

  function wrap(target: IFileSystem, key: PropertyKey, receiver: unknown, fn: (...a: unknown[]) => unknown): unknown {
    switch (key) {
      case 'writeFile':
      case 'appendFile':
        return (p: string, c: unknown, o: unknown) => write(p, c, o, fn as (...a: unknown[]) => Promise<void>);
      case 'stat':
      case 'lstat':
        return async (p: string) => (sinkOf(p) ? { ...device } : fn(p));
      case 'exists':
        return async (p: string) => (sinkOf(p) ? true : fn(p));
      case 'forCommand':
      case 'forShell':
        // A command's or a nested shell's own view (bash-fs.ts) keeps the sinks: its writes to them are output too.
        return (...a: unknown[]) => {
          const view = fn(...a) as IFileSystem;
          return view === target ? receiver : withOutputSinks(view, sinks, tty);
        };
      default:
        return fn;
    }
  }
}

function toBytes(content: unknown, options: unknown): Uint8Array {
  if (content instanceof Uint8Array) return content;
  // Text may hold bytes that are not UTF-8, each kept as U+DC00 + byte (shell-text.ts).
  return isByteString(options) ? Buffer.from(String(content), 'latin1') : shellTextBytes(String(content));
}

/** Whether a string written with these options is a byte string (encoding `binary`/`latin1`). */
function isByteString(options: unknown): boolean {
  const encoding = typeof options === 'string' ? options : (options as { encoding?: string } | undefined)?.encoding;
  return encoding === 'binary' || encoding === 'latin1';
}
