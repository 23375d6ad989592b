/**
 * `sh -lc SCRIPT` and `bash -lc SCRIPT` inside a script, as agent integrations run them: just-bash's own `sh` and
 * `bash` reject `-l` (a login shell), so the login flag is taken out (`-lc` → `-c`, `-l -c` → `-c`, `--login`)
 * before they run. A sprite's login profile sets nothing the shell engine lacks, so the script runs the same.
 * (The top-level request's `sh -lc` is unwrapped in argv.ts.)
 * @deviation No profile file is read for a nested login shell.
 */
import { defineCommand, type CustomCommand } from 'just-bash';

/**
 * `args` of `sh`/`bash` without the login flag: leading `-l`, `--login`, and the `l` of a cluster such as `-lc`,
 * `-cl`, `-lec`; everything from the script (or the first operand) on is kept as it is.
 */
export function withoutLogin(args: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-l' || a === '--login') continue;
    if (/^-[a-zA-Z]+$/.test(a) && a.includes('l')) {
      const rest = a.replace(/l/g, '');
      if (rest !== '-') out.push(rest);
      if (rest.includes('c')) return [...out, ...args.slice(i + 1)];
      continue;
    }
    if (a === '-c' || !a.startsWith('-') || a === '--' || a === '-') return [...out, ...args.slice(i)];
    out.push(a);
  }
  return out;
}

/** `sh` and `bash` for just-bash's `customCommands`: their own, with the login flag taken out. */
export function loginShellCommands(): CustomCommand[] {
  return ['sh', 'bash'].map((name) =>
    defineCommand(name, async (args, ctx) => ctx.origCommand!(withoutLogin(args))),
  );
}
