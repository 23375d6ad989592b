/**
 * `perl` of the shell engine: Perl 5 (WebAssembly, perl-runner.ts) on the sprite's own files, with perl's own command
 * line (every switch of perlrun(1): `-n -p -l -a -F -i -0 -M -E -w -c -x`…), stdin, environment, current directory,
 * umask and user. What it cannot do is loud (perl-prelude.ts): a program it would run, a socket, a module the build
 * lacks; and, here, the file tests that answer from permission bits and owners (`-r -w -x -o -R -W -X -O -u -g -k`),
 * which the WebAssembly perl answers as root from a stat without them: such a program is refused before it runs.
 * The interpreter is loaded on perl's first run, not with the engine.
 * @see perlrun(1); docs/fidelity.md "perl"
 */
import { bytesOutput, defineCommand, latin1FromBytes, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { runsAsRoot } from './run-as.ts';
import { SPRITE_UID } from '../../../../protocol/sprite-tree.ts';

/** The message of a refusal before perl runs. */
const refusal = (what: string): ExecResult => ({ stdout: '', stderr: `perl: ${what} is not available in the shell engine; run spritzer with --exec sandbox\n`, exitCode: 255 });

/**
 * The program texts perl would compile for `args`: each `-e`/`-E` argument, else the script file's (by the first
 * operand, read through `readScript`), else stdin's. Switches are read as perl reads a cluster: `-lane 'CODE'`,
 * `-F: -e CODE`, `-i.bak`, `-Mmod`, `-I dir`.
 */
export async function programTexts(args: readonly string[], readScript: (name: string) => Promise<string | null>, stdin: () => string): Promise<string[]> {
  const codes: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (c === 'e' || c === 'E') {
        const rest = a.slice(j + 1);
        if (rest !== '') codes.push(rest);
        else if (i + 1 < args.length) codes.push(args[++i]!);
        break;
      }
      // These take the rest of the cluster as their value (-I and -M/-m also the next argument when empty).
      if ('FiIMmxCdDV'.includes(c)) {
        if (a.length === j + 1 && 'IMm'.includes(c)) i++;
        break;
      }
      if (c === '0' || c === 'l') {
        while (j + 1 < a.length && /[0-9a-fA-Fx]/.test(a[j + 1]!)) j++;
      }
    }
  }
  if (codes.length > 0) return codes;
  if (i < args.length && args[i] !== '-') {
    const text = await readScript(args[i]!);
    return text === null ? [] : [text];
  }
  return [stdin()];
}

/**
 * The first file test in `code` that answers from permission bits or owners (`-r -w -x -o -R -W -X -O -u -g -k`
 * before a variable, a string, a parenthesis, `_` or a bareword handle), or null. A `#!` line's switches are not
 * tests.
 */
export function permissionTest(code: string): string | null {
  const body = code.startsWith('#!') ? code.slice(code.indexOf('\n') + 1) : code;
  const m = /(?<![\w$@%&*>\\'"-])-([rwxoRWXOugk])(?=\s*(?:[$'"(]|_\b|[A-Z][A-Z0-9_]*\b))/.exec(body);
  return m ? `-${m[1]}` : null;
}

async function perl(args: string[], ctx: CommandContext): Promise<ExecResult> {
  const stdinText = () => latin1FromBytes(ctx.stdin);
  const codes = await programTexts(
    args,
    async (name) => {
      try {
        return Buffer.from(await ctx.fs.readFileBuffer(ctx.fs.resolvePath(ctx.cwd, name))).toString('latin1');
      } catch {
        return null;
      }
    },
    stdinText,
  );
  for (const code of codes) {
    const test = permissionTest(code);
    if (test) return refusal(`the file test ${test} (permission bits and owners)`);
  }
  const { runPerl } = await import('./perl-runner.ts');
  const uid = runsAsRoot(ctx.env) ? 0 : SPRITE_UID;
  const umask = (ctx.fs as { umask?: unknown }).umask;
  const timeoutMs = ctx.limits?.maxPythonTimeoutMs ?? Infinity;
  const r = await runPerl({
    args,
    stdin: new Uint8Array(Buffer.from(stdinText(), 'latin1')),
    cwd: ctx.cwd,
    env: ctx.exportedEnv ?? Object.fromEntries(ctx.env),
    fs: ctx.fs,
    uid,
    umask: typeof umask === 'number' ? umask : 0o022,
    timeoutMs: timeoutMs > 0 && timeoutMs < 2 ** 31 - 1 ? timeoutMs : Infinity,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  const out = Buffer.from(r.stdout).toString('latin1');
  const err = Buffer.from(r.stderr).toString('utf8') + (r.timedOut ? `perl: execution timeout exceeded (${timeoutMs} ms)\n` : '');
  const order = r.order.length > 1 && out !== '' && err !== '' ? { outputOrder: r.order } : {};
  return { ...bytesOutput(unsafeBytesFromLatin1(out)), stderr: err, exitCode: r.exitCode, ...order };
}

/** `perl`. */
export function perlCommand(): CustomCommand {
  return defineCommand('perl', perl);
}
