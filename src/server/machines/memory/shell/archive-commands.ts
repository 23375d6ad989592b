/**
 * GNU tar's and gzip's reporting over just-bash's own `tar` and `gzip` (the archiving is just-bash's): `tar -v`
 * lists the members on stdout (on stderr only when the archive itself is stdout, `-f -`), and gzip's warnings
 * (`unknown suffix -- ignored`) exit 2 as GNU gzip's do.
 * @see https://www.gnu.org/software/tar/manual/tar.html#verbose, https://www.gnu.org/software/gzip/manual/gzip.html
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

async function gzipLike(args: string[], run: Run): Promise<ExecResult> {
  const r = await run(args);
  return r.exitCode === 1 && /unknown suffix -- ignored/.test(r.stderr) && !/No such file|not in gzip format/.test(r.stderr) ? { ...r, exitCode: 2 } : r;
}

/** `tar`, `gzip` and `gunzip` for just-bash's `customCommands`, over its own. */
export function archiveCommands(): CustomCommand[] {
  return [
    defineCommand('tar', (args, ctx) => tar(args, (a) => ctx.origCommand!(a))),
    defineCommand('gzip', (args, ctx) => gzipLike(args, (a) => ctx.origCommand!(a))),
    defineCommand('gunzip', (args, ctx) => gzipLike(args, (a) => ctx.origCommand!(a))),
  ];
}
