/**
 * `/usr/bin/test` and `/usr/bin/[` (coreutils'), for scripts that call them by path (`/usr/bin/[ -f x ]`, `env test
 * …`, `find -exec test …`): the shell's own `test` decides, as coreutils' test implements the same POSIX rules; a
 * `[` without its closing `]` is coreutils' `[: missing ‘]’`, status 2. The builtins still answer a plain `test`/`[`.
 * Its `-r/-w/-x` are euidaccess(3)'s: the real ids, no capability (bash's builtin counts an exec session's).
 * @deviation messages name the program `test` or `[` (coreutils: the path it was called by) and word a malformed
 * expression as bash's builtin does.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/test-invocation.html
 */
import { defineCommand, type CustomCommand } from 'just-bash';
import { shellQuote } from './printf-format.ts';
import { REAL_ACCESS_VARIABLE } from './run-as.ts';

/** `test` and `[` as programs, run through the shell's `test` builtin. */
export function testCommands(): CustomCommand[] {
  const program = (name: 'test' | '[') =>
    defineCommand(name, async (args, ctx) => {
      let operands = args;
      if (name === '[') {
        if (args[args.length - 1] !== ']') return { stdout: '', stderr: "[: missing ‘]’\n", exitCode: 2 };
        operands = args.slice(0, -1);
      }
      if (!ctx.exec) return { stdout: '', stderr: `${name}: not available here\n`, exitCode: 2 };
      // coreutils' test asks euidaccess(3): access(2)'s real-id answer, without an exec session's capabilities.
      const env = { ...Object.fromEntries(ctx.env), [REAL_ACCESS_VARIABLE]: '1' };
      const r = await ctx.exec(`builtin test ${operands.map(shellQuote).join(' ')}`, { cwd: ctx.cwd, env });
      // The builtin's messages carry the shell's prefix (`bash: line 1: test:`); the program's its own name.
      return { stdout: r.stdout, stderr: r.stderr.replace(/^bash: (?:line \d+: )?test: /gm, `${name}: `), exitCode: r.exitCode };
    });
  return [program('test'), program('[')];
}
