/**
 * GNU tar's behaviour and reporting over just-bash's own `tar` (the archiving is just-bash's): `tar -v` lists the
 * members on stdout (on stderr only when the archive itself is stdout, `-f -`); a missing archive, `-C` directory
 * or output directory fails as GNU's does (exit 2, with `tar (child)` lines when a compressor runs); a missing file
 * to archive is `Cannot stat`, a member operand not in the archive `Not found in archive` (exit 2 after the rest
 * ran); symlinks are archived as symlinks (not what they point to) unless `-h`; extracted files keep the archive's
 * modes (just-bash applies them only with `-p`).
 * @see https://www.gnu.org/software/tar/manual/tar.html
 */
import { gzipSync } from 'node:zlib';
import { bytesOutput, defineCommand, latin1FromBytes, unsafeBytesFromLatin1, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';
import { tarBytes, tarMembers, withSymlinks } from './tar-archive.ts';
import { tarPlan, type TarPlan } from './tar-plan.ts';

type Run = (args: string[]) => Promise<ExecResult>;

const FATAL = 'tar: Error is not recoverable: exiting now\n';
const FAILED = 'tar: Exiting with failure status due to previous errors\n';

/** GNU's lines when the archive `name` cannot be opened (by tar's compressor child when there is one). */
function cannotOpen(name: string, p: TarPlan): ExecResult {
  if (!p.compressed) return { stdout: '', stderr: `tar: ${name}: Cannot open: No such file or directory\n${FATAL}`, exitCode: 2 };
  const pipe = p.op === 'c' ? `tar: ${name}: Cannot write: Broken pipe\n` : '';
  return { stdout: '', stderr: `tar (child): ${name}: Cannot open: No such file or directory\ntar (child): Error is not recoverable: exiting now\n${pipe}tar: Child returned status 2\n${FATAL}`, exitCode: 2 };
}

const exists = async (fs: IFileSystem, path: string) => (await fs.stat(path).catch(() => null)) !== null;
const dirOf = (path: string) => path.slice(0, Math.max(path.lastIndexOf('/'), 0)) || '/';

/** A failure GNU tar reports before doing anything, or undefined. */
async function precheck(p: TarPlan, fs: IFileSystem, cwd: string): Promise<ExecResult | undefined> {
  const archive = p.archive !== undefined && p.archive !== '-' ? fs.resolvePath(cwd, p.archive) : undefined;
  if (archive && (p.op === 'x' || p.op === 't' || p.op === 'd') && !(await exists(fs, archive))) return cannotOpen(p.archive!, p);
  if (archive && p.op === 'c' && !(await exists(fs, dirOf(archive)))) return cannotOpen(p.archive!, p);
  let dir = cwd;
  for (const d of p.chdirs) {
    dir = fs.resolvePath(dir, d);
    const st = await fs.stat(dir).catch(() => null);
    if (!st?.isDirectory) return { stdout: '', stderr: `tar: ${d}: Cannot open: ${st ? 'Not a directory' : 'No such file or directory'}\n${FATAL}`, exitCode: 2 };
  }
  return undefined;
}

/** Just-bash's `-v` lines moved to stdout, as GNU prints them (stderr only when the archive is stdout). */
function verboseToStdout(r: ExecResult, p: TarPlan): ExecResult {
  if (!p.verbose || p.archive === '-' || !r.stderr) return r;
  const lines = r.stderr.split('\n');
  const isMessage = (l: string) => l === '' || l.startsWith('tar: ') || l.startsWith('tar (child)');
  const listed = lines.filter((l) => !isMessage(l));
  if (listed.length === 0) return r;
  return { ...r, stdout: `${r.stdout}${listed.join('\n')}\n`, stderr: lines.filter(isMessage).join('\n').replace(/^\n+/, '') };
}

/** The archive just created, its symlink members made symlinks again (the names are relative to `base`). */
async function mendSymlinks(r: ExecResult, p: TarPlan, fs: IFileSystem, base: string, cwd: string): Promise<ExecResult> {
  const links = new Map<string, string>();
  for (const m of p.members) {
    const abs = fs.resolvePath(base, m);
    const st = await fs.lstat(abs).catch(() => null);
    if (st?.isSymbolicLink) links.set(m.replace(/\/+$/, ''), await fs.readlink(abs));
    else if (st?.isDirectory) await collectLinks(fs, abs, m.replace(/\/+$/, ''), links);
  }
  if (links.size === 0) return r;
  const linkOf = (name: string) => links.get(name);
  if (p.archive === '-' || p.archive === undefined) {
    const mended = withSymlinks(r.stdout, linkOf);
    return mended === undefined ? r : { ...r, ...bytesOutput(unsafeBytesFromLatin1(mended)) };
  }
  const path = fs.resolvePath(cwd, p.archive);
  const mended = withSymlinks(Buffer.from(await fs.readFileBuffer(path)).toString('latin1'), linkOf);
  if (mended !== undefined) await fs.writeFile(path, Buffer.from(mended, 'latin1'));
  return r;
}

/** The symlinks below directory `abs` (shown as `shown/…`) into `links`, with their targets. */
async function collectLinks(fs: IFileSystem, abs: string, shown: string, links: Map<string, string>): Promise<void> {
  for (const name of await fs.readdir(abs).catch(() => [] as string[])) {
    const child = `${abs}/${name}`;
    const st = await fs.lstat(child).catch(() => null);
    if (st?.isSymbolicLink) links.set(`${shown}/${name}`, await fs.readlink(child));
    else if (st?.isDirectory) await collectLinks(fs, child, `${shown}/${name}`, links);
  }
}

/** A tar `--wildcards` pattern as a regex over member names (`*` matches `/` too, as GNU's default). */
const globRegex = (glob: string) => new RegExp(`^${glob.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}(/.*)?$`);

/** `Not found in archive` for each member operand that names nothing in the archive. */
async function notFound(p: TarPlan, fs: IFileSystem, cwd: string, stdin: string): Promise<string> {
  if (p.members.length === 0) return '';
  const raw = p.archive === undefined || p.archive === '-' ? stdin : Buffer.from(await fs.readFileBuffer(fs.resolvePath(cwd, p.archive)).catch(() => new Uint8Array())).toString('latin1');
  const bytes = tarBytes(raw);
  if (bytes === undefined) return '';
  const names = tarMembers(bytes).map((m) => m.name.replace(/\/$/, ''));
  return p.members
    .filter((m) => {
      const bare = m.replace(/\/+$/, '');
      if (p.wildcards && /[*?[]/.test(bare)) return !names.some((n) => globRegex(bare).test(n));
      return !names.some((n) => n === bare || n.startsWith(`${bare}/`));
    })
    .map((m) => `tar: ${m}: Not found in archive\n`)
    .join('');
}

/** Names `--exclude-vcs` leaves out, as GNU tar's list. */
const VCS = ['CVS', '.cvsignore', 'RCS', 'SCCS', '.git', '.gitignore', '.gitattributes', '.gitmodules', '.arch-ids', '{arch}', '=RELEASE-ID', '=meta-update', '=update', '.bzr', '.bzrignore', '.bzrtags', '.hg', '.hgignore', '.hgrags', '_darcs'];

/**
 * `args` as just-bash's tar reads them: `-h` dropped (it always follows symlinks; the archive is mended unless
 * asked), `--skip-old-files` and `-k` as its `-k` (skip silently), `--exclude-vcs` as `--exclude`s.
 */
function forJustBash(args: string[]): string[] {
  return args.flatMap((a, i) => {
    if (a === '--dereference' || a === '--skip-old-files' || a === '--keep-old-files') return a === '--dereference' ? [] : ['-k'];
    if (a === '--exclude-vcs') return VCS.map((v) => `--exclude=${v}`);
    // `h` inside a short cluster (`-czhf`, or the old-style first word).
    const cluster = (a.startsWith('-') && !a.startsWith('--') && a.length > 1) || (i === 0 && !a.startsWith('-'));
    if (cluster && a.includes('h')) {
      // Only letters before a valued one are flags (`-fhome.tar` names an archive).
      const valued = a.search(/[fCTXbKNgVLFH]/);
      const head = valued < 0 ? a : a.slice(0, valued);
      const out = head.replace(/h/g, '') + (valued < 0 ? '' : a.slice(valued));
      return out === '-' || out === '' ? [] : [out];
    }
    return [a];
  });
}

/** GNU's `File exists` for each member `-k` would not overwrite (just-bash skips them silently). */
async function keptOld(p: TarPlan, fs: IFileSystem, cwd: string, stdin: string): Promise<string> {
  const raw = p.archive === undefined || p.archive === '-' ? stdin : Buffer.from(await fs.readFileBuffer(fs.resolvePath(cwd, p.archive)).catch(() => new Uint8Array())).toString('latin1');
  const bytes = tarBytes(raw);
  if (bytes === undefined) return '';
  const base = p.chdirs.reduce((d, c) => fs.resolvePath(d, c), cwd);
  let out = '';
  for (const m of tarMembers(bytes)) {
    if (m.type === '5') continue;
    const st = await fs.lstat(fs.resolvePath(base, m.name)).catch(() => null);
    if (st) out += `tar: ${m.name}: Cannot open: File exists\n`;
  }
  return out;
}

async function tar(args: string[], fs: IFileSystem, cwd: string, stdin: string, run: Run): Promise<ExecResult> {
  const p = tarPlan(args);
  const early = await precheck(p, fs, cwd);
  if (early) return early;
  const kept = p.op === 'x' && p.keepOld ? await keptOld(p, fs, cwd, stdin) : '';
  const argv = forJustBash(args);
  // GNU applies the archive's modes on extraction (masked by the umask, 022 here); just-bash only with -p.
  let r = await run(p.op === 'x' && !p.preserve && !p.toStdout ? [...argv, '-p'] : argv);
  if (kept) r = { ...r, stderr: `${r.stderr}${kept}${FAILED}`, exitCode: 2 };
  if (p.op === 'c') {
    const stderr = r.stderr.replace(/^tar: (.*): ENOENT: no such file or directory, (?:l?stat) .*$/gm, 'tar: $1: Cannot stat: No such file or directory');
    r = { ...r, stderr: stderr !== r.stderr && !stderr.includes(FAILED) ? `${stderr.replace(/\n?$/, '\n')}${FAILED}` : stderr };
    if (/^tar: Cowardly refusing to create an empty archive$/m.test(r.stderr) && !r.stderr.includes("Try 'tar --help'")) r = { ...r, stderr: `${r.stderr.replace(/\n?$/, '\n')}Try 'tar --help' or 'tar --usage' for more information.\n` };
    if (!p.dereference) r = await mendSymlinks(r, p, fs, p.chdirs.reduce((d, c) => fs.resolvePath(d, c), cwd), cwd);
    // GNU writes the archive even when no member could be read: its end-of-archive blocks.
    const path = p.archive !== undefined && p.archive !== '-' ? fs.resolvePath(cwd, p.archive) : undefined;
    if (path && p.members.length > 0 && r.exitCode !== 0 && !(await exists(fs, path)) && (!p.compressed || p.gzip)) {
      const empty = Buffer.alloc(10240);
      await fs.writeFile(path, p.gzip ? gzipSync(empty) : empty).catch(() => undefined);
    }
  }
  if (/^tar: Invalid tar archive format$/m.test(r.stderr)) r = { ...r, stderr: r.stderr.replace(/^tar: Invalid tar archive format\n?/m, `tar: This does not look like a tar archive\n${FAILED}`), exitCode: 2 };
  if ((p.op === 't' || p.op === 'x') && r.exitCode === 0) {
    const missing = await notFound(p, fs, cwd, stdin);
    if (missing) r = { ...r, stderr: `${r.stderr}${missing}${FAILED}`, exitCode: 2 };
  }
  return verboseToStdout(r, p);
}

/** `tar` for just-bash's `customCommands`, over its own (gzip-command.ts has gzip). */
export function archiveCommands(): CustomCommand[] {
  return [defineCommand('tar', (args, ctx) => tar(args, ctx.fs, ctx.cwd, latin1FromBytes(ctx.stdin), (a) => ctx.origCommand!(a)))];
}
