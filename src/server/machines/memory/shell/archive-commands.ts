/**
 * GNU tar's reporting over just-bash's own `tar` (the archiving is just-bash's): `tar -v` lists the members on
 * stdout (on stderr only when the archive itself is stdout, `-f -`).
 * @see https://www.gnu.org/software/tar/manual/tar.html#verbose
 */
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';

type Run = (args: string[]) => Promise<ExecResult>;

/** Whether tar's argv asks for verbose output and names an archive other than stdout. */
function verboseToStdout(args: string[]): boolean {
  let verbose = false;
  let toStdout = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--verbose') verbose = true;
    else if (a === '--file=-' || (a === '--file' && args[i + 1] === '-')) toStdout = true;
    else if (/^-?[A-Za-z]+$/.test(a) && !a.startsWith('--') && (i === 0 || a.startsWith('-'))) {
      if (a.includes('v')) verbose = true;
      // `-cvf -`: the word after a cluster ending in f is the archive.
      if (a.endsWith('f') && args[i + 1] === '-') toStdout = true;
    }
  }
  return verbose && !toStdout;
}

async function tar(args: string[], run: Run): Promise<ExecResult> {
  const r = await run(args);
  if (!verboseToStdout(args) || !r.stderr) return r;
  const lines = r.stderr.split('\n');
  const listed = lines.filter((l) => l !== '' && !l.startsWith('tar: ') && !l.startsWith('tar (child)'));
  if (listed.length === 0) return r;
  const kept = lines.filter((l) => l === '' || l.startsWith('tar: ') || l.startsWith('tar (child)')).join('\n').replace(/^\n+/, '');
  return { ...r, stdout: `${r.stdout}${listed.join('\n')}\n`, stderr: kept };
}

/** `tar` for just-bash's `customCommands`, over its own (gzip-command.ts has gzip). */
export function archiveCommands(): CustomCommand[] {
  return [defineCommand('tar', (args, ctx) => tar(args, (a) => ctx.origCommand!(a)))];
}
