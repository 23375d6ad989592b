/**
 * `awk` as the sprite's awk (mawk 1.3.4) runs, in place of just-bash's: the command line (`-F`, `-v`, `-f`, `--`,
 * `var=value` operands), ARGV/ARGC/ENVIRON, the program run by awk-run.ts over the sprite's files, commands run
 * through the shell (`system()`, `print | cmd`, `cmd | getline`), mawk's messages (`awk: line 1: syntax error at or
 * near }`, `awk: cannot open F (No such file or directory)`, `awk: run time error: …`) and exit 2 for them.
 * @see https://invisible-island.net/mawk/manpage/mawk.html
 */
import { bytesOutput, defineCommand, latin1FromBytes, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { shellQuote } from '../argv.ts';
import { AwkSyntaxError, parseAwk } from './awk-parse.ts';
import { AwkRun, AwkRuntimeError, inputValue, type AwkHost } from './awk-run.ts';
import { rmEscape } from './awk-text.ts';
import { errnoText, isStdinOperand, leadingOptions } from './text-input.ts';
import { errorsFirst } from './output-order.ts';
import { stdinIsClosed } from './closed-stdin.ts';

const utf8ToBytes = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
/** The text of `bytes` (awk's strings are bytes, one char each): how the shell names a file awk opens. */
const bytesToText = (bytes: string) => Buffer.from(bytes, 'latin1').toString('utf8');
const USAGE = 'usage: awk [-F value] [-v var=value] [--] \'program text\' [file ...]\nusage: awk [-F value] [-v var=value] [-f program-file] [--] [file ...]\n';

/** The host side of a run: the sprite's files and the shell, for awk-run.ts. */
function hostOf(ctx: CommandContext, stderr: { text: string }): AwkHost {
  const fs = ctx.fs;
  const host: AwkHost & { readError?: string } = {
    async readFile(name) {
      try {
        host.readError = undefined;
        return Buffer.from(await fs.readFileBuffer(fs.resolvePath(ctx.cwd, bytesToText(name)))).toString('latin1');
      } catch (err) {
        host.readError = errnoText(err);
        return undefined;
      }
    },
    async run(cmd, stdin) {
      const r = await ctx.exec!(`sh -c ${shellQuote(bytesToText(cmd))}`, { cwd: ctx.cwd, stdin, stdinKind: 'bytes' });
      stderr.text += r.stderr;
      const stdout = r.stdoutKind === 'bytes' || r.stdoutEncoding === 'binary' ? r.stdout : utf8ToBytes(r.stdout);
      return { stdout, status: r.exitCode };
    },
    async writeFile(name, data, append) {
      const path = fs.resolvePath(ctx.cwd, bytesToText(name));
      try {
        let prefix = '';
        if (append) prefix = Buffer.from(await fs.readFileBuffer(path).catch(() => new Uint8Array())).toString('latin1');
        await fs.writeFile(path, Buffer.from(prefix + data, 'latin1'));
        return true;
      } catch {
        return false;
      }
    },
  };
  return host;
}

async function awk(args: string[], ctx: CommandContext): Promise<ExecResult> {
  const assigns: Array<[string, string]> = [];
  let fs: string | undefined;
  const sources: string[] = [];
  const programFiles: string[] = [];
  const fail = (text: string): ExecResult => ({ stdout: '', stderr: `awk: ${text}\n`, exitCode: 2 });
  const walked = leadingOptions(args, (a, next) => {
    const opt = a[1]!;
    const value = () => (a.length > 2 ? a.slice(2) : next());
    if (opt === 'F') {
      const v = value();
      if (v === undefined) return fail('option requires an argument -- F');
      fs = v === 't' ? '\t' : rmEscape(v);
    } else if (opt === 'v') {
      const v = value() ?? '';
      const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(v);
      if (!m) return fail(`improper assignment: -v ${v}`);
      assigns.push([m[1]!, m[2]!]);
    } else if (opt === 'f') programFiles.push(value() ?? '');
    else if (opt === 'W') value();
    else return fail(`not an option: ${a}`);
    return undefined;
  });
  if ('failed' in walked) return walked.failed;
  let i = walked.index;
  // A program read from stdin (`-f -`, `-f /dev/stdin`) leaves no stdin for the data.
  let programFromStdin = false;
  for (const name of programFiles) {
    const fromStdin = isStdinOperand(name);
    programFromStdin ||= fromStdin;
    const reader = hostOf(ctx, { text: '' });
    const read = fromStdin ? latin1FromBytes(ctx.stdin) : await reader.readFile(utf8ToBytes(name));
    if (read === undefined) return fail(`cannot open ${name} (${reader.readError ?? 'No such file or directory'})`);
    sources.push(read);
  }
  if (sources.length === 0) {
    if (i >= args.length) return { stdout: '', stderr: USAGE, exitCode: 2 };
    sources.push(utf8ToBytes(args[i++]!));
  }
  const operands = args.slice(i).map(utf8ToBytes);
  let program;
  try {
    program = parseAwk(sources.join('\n'));
  } catch (err) {
    if (err instanceof AwkSyntaxError) return fail(programFiles.length === 1 ? `${programFiles[0]}: ${err.message.replace(/\nawk: /g, `\nawk: ${programFiles[0]}: `)}` : err.message);
    throw err;
  }
  const errors = { text: '' };
  const run = new AwkRun(program, hostOf(ctx, errors), () => (programFromStdin ? '' : stdinIsClosed(ctx) ? null : latin1FromBytes(ctx.stdin)), { iterations: ctx.limits?.maxLoopIterations ?? Infinity, signal: ctx.signal });
  if (fs !== undefined) run.globals.set('FS', fs);
  for (const [k, v] of assigns) run.globals.set(k, inputValue(rmEscape(utf8ToBytes(v))));
  const argv = run.array('ARGV');
  argv.set(0, 'awk');
  operands.forEach((o, k) => argv.set(k + 1, o));
  run.globals.set('ARGC', operands.length + 1);
  const environ = run.array('ENVIRON');
  for (const [k, v] of ctx.env) environ.set(k, utf8ToBytes(v));
  let status: number;
  try {
    status = await run.runProgram();
  } catch (err) {
    if (!(err instanceof AwkRuntimeError)) throw err;
    await run.flushAll().catch(() => undefined);
    const where = err.cause === 'open' || err.cause === 'read' ? '' : `\n\tFILENAME="${run.str(run.globals.get('FILENAME')!)}" FNR=${run.str(run.globals.get('FNR')!)} NR=${run.str(run.globals.get('NR')!)}`;
    const message = bytesToText(err.cause === 'open' || err.cause === 'read' ? `awk: ${err.message}` : `awk: run time error: ${err.message}${where}`);
    return { ...bytesOutput(unsafeBytesFromLatin1(run.out)), stderr: `${errors.text}${bytesToText(run.err)}${message}\n`, exitCode: 2 };
  }
  return { ...bytesOutput(unsafeBytesFromLatin1(run.out)), stderr: errors.text + bytesToText(run.err), exitCode: status };
}

/** `awk` (and `mawk`, the same program on the sprite) for just-bash's `customCommands`. */
export function awkCommands(): CustomCommand[] {
  // awk (mawk) writes its messages unbuffered and its output through stdio: the messages come first into a pipe.
  return [defineCommand('awk', async (args, ctx) => errorsFirst(await awk(args, ctx)))];
}
