/**
 * GNU tar's behaviour and reporting over just-bash's own `tar` (the archiving is just-bash's): `tar -v` lists the
 * members on stdout (on stderr only when the archive itself is stdout, `-f -`); a missing archive, `-C` directory
 * or output directory fails as GNU's does (exit 2, with `tar (child)` lines when a compressor runs); a missing file
 * to archive is `Cannot stat`, a member operand not in the archive `Not found in archive` (exit 2 after the rest
 * ran); symlinks are archived as symlinks (not what they point to) unless `-h`; extracted files keep the archive's
 * modes (just-bash applies them only with `-p`).
 * @see https://www.gnu.org/software/tar/manual/tar.html
 */
import { accessTime, fileTime } from './file-time.ts';
import { gzipSync } from 'node:zlib';
import { bytesOutput, defineCommand, latin1FromBytes, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';
import { tarBytes, tarData, tarHeader, tarMembers, withoutMembers, withSymlinks } from './tar-archive.ts';
import { ownerOptions, setOwners } from './tar-owners.ts';
import { tarPlan, type TarPlan } from './tar-plan.ts';
import { named, verboseListing } from './tar-listing.ts';
import { SANDBOX_HINT } from './world.ts';
import { tarWithZstd } from './tar-zstd.ts';
import { tarWithTransform } from './tar-transform.ts';
import { tarWithPositional } from './tar-positional.ts';
import { tarReproducible } from './tar-reproducible.ts';
import { detachName } from './replace-file.ts';
import { bunzip2Capped, unxzCapped } from './decompress-limit.ts';

type Run = (args: string[]) => Promise<ExecResult>;

const FATAL = 'tar: Error is not recoverable: exiting now\n';
const FAILED = 'tar: Exiting with failure status due to previous errors\n';

/**
 * `r` with a member operand that could not be read worded as GNU tar words it when creating, appending or updating
 * (`tar: NAME: Cannot stat: No such file or directory`), and the failure line after the messages.
 */
function cannotStat(r: ExecResult): ExecResult {
  const stderr = r.stderr.replace(/^tar: (.*): ENOENT: no such file or directory, (?:l?stat) .*$/gm, 'tar: $1: Cannot stat: No such file or directory');
  return { ...r, stderr: stderr !== r.stderr && !stderr.includes(FAILED) ? `${stderr.replace(/\n?$/, '\n')}${FAILED}` : stderr };
}

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

/** The compressor whose magic `raw` starts with, or undefined (plain tar, or anything else). */
const compressorOf = (raw: string) => (raw.startsWith('\x1f\x8b') ? 'gzip' : raw.startsWith('BZh') ? 'bzip2' : raw.startsWith('\xfd7zXZ\0') ? 'xz' : undefined);

/** What each compressor child says of data that is not its format, and the status it exits with. */
const NOT_MINE = { gzip: ['\ngzip: stdin: not in gzip format\n', 1], bzip2: ['bzip2: (stdin) is not a bzip2 file.\n', 2], xz: ['xz: (stdin): File format not recognized\n', 1] } as const;

/**
 * Reading an archive through the wrong compressor fails as GNU's does: `-z`/`-j`/`-J` on data its child cannot
 * read is the child's message and `Child returned status N`; compressed data on stdin without one is `Archive is
 * compressed. Use -z option` (GNU detects a compressed archive file by itself, but cannot re-read a pipe).
 */
function compressorMismatch(p: TarPlan, raw: string): ExecResult | undefined {
  if ((p.op !== 'x' && p.op !== 't' && p.op !== 'd') || p.auto || p.zstd || raw === '') return undefined;
  const found = compressorOf(raw);
  const asked = p.gzip ? 'gzip' : p.bzip2 ? 'bzip2' : p.xz ? 'xz' : undefined;
  if (asked && found !== asked) {
    const [text, status] = NOT_MINE[asked];
    return { stdout: '', stderr: `${text}tar: Child returned status ${status}\n${FATAL}`, exitCode: 2 };
  }
  if (!p.compressed && found && (p.archive === undefined || p.archive === '-')) {
    return { stdout: '', stderr: `tar: Archive is compressed. Use ${found === 'gzip' ? '-z' : found === 'bzip2' ? '-j' : '-J'} option\n${FATAL}`, exitCode: 2 };
  }
  return undefined;
}

/** Just-bash's `-v` lines moved to stdout, as GNU prints them (stderr when the archive or, with -O, the data is stdout). */
function verboseToStdout(r: ExecResult, p: TarPlan): ExecResult {
  // With -O the members' data is stdout, so GNU keeps the names on stderr.
  if (!p.verbose || p.archive === '-' || p.toStdout || !r.stderr) return r;
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
  const bytes = await readTar(raw);
  if (bytes === undefined) return '';
  const names = tarMembers(bytes).map((m) => m.name.replace(/\/$/, ''));
  const missing = p.members.filter((m) => {
    const bare = m.replace(/\/+$/, '');
    if (p.wildcards && /[*?[]/.test(bare)) return !names.some((n) => globRegex(bare).test(n));
    return !names.some((n) => n === bare || n.startsWith(`${bare}/`));
  });
  // A name with pattern characters that matched nothing literally: GNU suspects a forgotten --wildcards.
  const hint = !p.wildcards && !p.order.some((i) => 'option' in i && i.option === '--no-wildcards') && missing.some((m) => /[*?[]/.test(m));
  return (hint ? 'tar: Pattern matching characters used in file names\ntar: Use --wildcards to enable pattern matching, or --no-wildcards to suppress this warning\n' : '') + missing.map((m) => `tar: ${m}: Not found in archive\n`).join('');
}

/** Names `--exclude-vcs` leaves out, as GNU tar's list. */
const VCS = ['CVS', '.cvsignore', 'RCS', 'SCCS', '.git', '.gitignore', '.gitattributes', '.gitmodules', '.arch-ids', '{arch}', '=RELEASE-ID', '=meta-update', '=update', '.bzr', '.bzrignore', '.bzrtags', '.hg', '.hgignore', '.hgrags', '_darcs'];

/**
 * `args` as just-bash's tar reads them: `-h` dropped (it always follows symlinks; the archive is mended unless
 * asked), `--skip-old-files` and `-k` as its `-k` (skip silently), `--exclude-vcs` as `--exclude`s, `--overwrite`
 * dropped (its default), `--strip-components N` as `--strip-components=N`.
 */
function forJustBash(args: string[]): string[] {
  const taken = new Set<number>();
  return args.flatMap((a, i) => {
    if (taken.has(i)) return [];
    // --overwrite is what extraction does anyway (GNU's default for files); just-bash knows only the = form of
    // --strip-components.
    if (a === '--overwrite') return [];
    if (a === '--strip-components' && i + 1 < args.length) {
      taken.add(i + 1);
      return [`--strip-components=${args[i + 1]}`];
    }
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

/**
 * `--exclude` patterns as GNU applies them when reading an archive: unanchored, so a pattern also matches any tail
 * of a member's name after a `/` (`--exclude=lib` leaves out `src/lib` and what is below it). just-bash matches a
 * pattern against the whole name only, so each gets a twin that starts with any directories (a star and a slash).
 */
function unanchoredExcludes(args: string[]): string[] {
  return args.flatMap((a, i) => {
    const m = /^--exclude=(.+)$/s.exec(a) ?? (args[i - 1] === '--exclude' ? /^(.+)$/s.exec(a) : null);
    if (!m || m[1]!.startsWith('/') || m[1]!.startsWith('*/')) return [a];
    return a.startsWith('--exclude=') ? [a, `--exclude=*/${m[1]}`] : [a, '--exclude', `*/${m[1]}`];
  });
}

/** GNU's `File exists` for each member `-k` would not overwrite (just-bash skips them silently). */
async function keptOld(p: TarPlan, fs: IFileSystem, cwd: string, stdin: string): Promise<string> {
  const raw = p.archive === undefined || p.archive === '-' ? stdin : Buffer.from(await fs.readFileBuffer(fs.resolvePath(cwd, p.archive)).catch(() => new Uint8Array())).toString('latin1');
  const bytes = await readTar(raw);
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

/**
 * The tar bytes of archive `raw` (latin1) as a reader of its members needs them: gunzipped, bunzipped or unxz'd
 * (within the engine's decompression bound); undefined when they cannot be read.
 */
async function readTar(raw: string): Promise<string | undefined> {
  try {
    if (raw.startsWith('BZh')) return bunzip2Capped(Buffer.from(raw, 'latin1')).toString('latin1');
    if (raw.startsWith('\xfd7zXZ\0')) return (await unxzCapped(Buffer.from(raw, 'latin1'))).toString('latin1');
  } catch {
    return undefined;
  }
  return tarBytes(raw);
}

/** The archive's bytes: its file, or stdin for `-f -`/no `-f`. */
async function archiveBytes(p: TarPlan, fs: IFileSystem, cwd: string, stdin: string): Promise<string> {
  return p.archive === undefined || p.archive === '-' ? stdin : Buffer.from(await fs.readFileBuffer(fs.resolvePath(cwd, p.archive)).catch(() => new Uint8Array())).toString('latin1');
}

/**
 * `tar -d` (`--diff`, `--compare`): each member (or those the operands name) against the disk, as GNU reports it:
 * `NAME: Warning: Cannot stat: …` for a missing file, then `Mode differs`, `Uid differs`, `Gid differs`,
 * `Mod time differs`, `Size differs` or `Contents differs`, `Symlink differs`; status 1 when anything differs.
 */
async function compare(p: TarPlan, fs: IFileSystem, cwd: string, stdin: string): Promise<ExecResult> {
  const b = await readTar(await archiveBytes(p, fs, cwd, stdin));
  if (b === undefined) return { stdout: '', stderr: `tar: This does not look like a tar archive\n${FATAL}`, exitCode: 2 };
  const base = p.chdirs.reduce((d, c) => fs.resolvePath(d, c), cwd);
  let stdout = '';
  let stderr = '';
  for (const m of tarMembers(b)) {
    const name = m.name.replace(/\/$/, '');
    if (!named(p.members, name)) continue;
    const abs = fs.resolvePath(base, name);
    const st = (await fs.lstat(abs).catch(() => null)) as (Awaited<ReturnType<IFileSystem['lstat']>> & { uid?: number; gid?: number }) | null;
    if (!st) {
      stderr += `tar: ${name}: Warning: Cannot stat: No such file or directory\n`;
      continue;
    }
    const h = tarHeader(b, m);
    const says = (what: string) => (stdout += `${name}: ${what}\n`);
    if (m.type === '2') {
      if (!st.isSymbolicLink || (await fs.readlink(abs)) !== h.linkname) says('Symlink differs');
      continue;
    }
    if ((m.type === '5') !== st.isDirectory) {
      says('File type differs');
      continue;
    }
    if ((st.mode & 0o7777) !== (h.mode & 0o7777)) says('Mode differs');
    if (st.uid !== undefined && st.uid !== h.uid) says('Uid differs');
    if (st.gid !== undefined && st.gid !== h.gid) says('Gid differs');
    if (Math.floor(st.mtime.getTime() / 1000) !== h.mtime) says('Mod time differs');
    if (m.type === '5') continue;
    if (st.size !== h.size) says('Size differs');
    else if (Buffer.from(await fs.readFileBuffer(abs)).toString('latin1') !== tarData(b, m)) says('Contents differ');
  }
  return { stdout, stderr, exitCode: stdout || stderr ? 1 : 0 };
}

/**
 * What `tar -c` could not read, as GNU reports it: `tar: NAME: Cannot open: Permission denied` for a file or a
 * directory the user may not read (just-bash words the filesystem's EACCES), the failure line, exit 2, and no member
 * for such a directory (just-bash adds its entry before reading it; GNU adds nothing it cannot open).
 */
async function unreadableMembers(r: ExecResult, p: TarPlan, fs: IFileSystem, cwd: string): Promise<ExecResult> {
  const denied = /^tar: (.*): EACCES: permission denied, (open|scandir) .*$/gm;
  const dirs = [...r.stderr.matchAll(denied)].filter((m) => m[2] === 'scandir').map((m) => m[1]!);
  if (!denied.test(r.stderr)) return r;
  const stderr = r.stderr.replace(denied, 'tar: $1: Cannot open: Permission denied');
  const path = p.archive !== undefined && p.archive !== '-' ? fs.resolvePath(cwd, p.archive) : undefined;
  const unlisted = (n: string) => dirs.includes(n.replace(/\/$/, ''));
  if (path && dirs.length > 0 && !p.compressed) {
    const kept = withoutMembers(Buffer.from(await fs.readFileBuffer(path)).toString('latin1'), unlisted);
    if (kept !== undefined) await fs.writeFile(path, Buffer.from(kept, 'latin1'));
  }
  // `-v` names each member as it is added (on either stream, before the listing is moved): not the left-out ones.
  const listed = (text: string) => (p.verbose ? text.split(/(?<=\n)/).filter((l) => !unlisted(l.replace(/\n$/, ''))).join('') : text);
  const told = listed(stderr);
  return { ...r, stdout: listed(r.stdout), stderr: told.includes(FAILED) ? told : `${told.replace(/\n?$/, '\n')}${FAILED}`, exitCode: 2 };
}

/** Whether archive bytes start with a compressor's magic (gzip, bzip2, xz, zstd). */
const isCompressed = (raw: string) => /^(\x1f\x8b|BZh|\xfd7zXZ|\x28\xb5\x2f\xfd)/.test(raw);

/** `tar --delete -f ARCHIVE MEMBER…`: the members (and what is below a directory member) removed in place. */
async function deleteMembers(p: TarPlan, fs: IFileSystem, cwd: string): Promise<ExecResult> {
  if (p.archive === undefined || p.archive === '-') return { stdout: '', stderr: `tar: --delete of an archive on stdin is not available in the shell engine; ${'run spritzer with --exec sandbox'}\n`, exitCode: 2 };
  const path = fs.resolvePath(cwd, p.archive);
  const raw = await archiveBytes(p, fs, cwd, '');
  if (p.compressed || isCompressed(raw)) return { stdout: '', stderr: `tar: Cannot update compressed archives\n${FATAL}`, exitCode: 2 };
  const b = await readTar(raw);
  if (b === undefined) return { stdout: '', stderr: `tar: This does not look like a tar archive\n${FATAL}`, exitCode: 2 };
  const names = tarMembers(b).map((m) => m.name.replace(/\/$/, ''));
  const missing = p.members.filter((o) => !names.some((n) => named([o], n)));
  const kept = withoutMembers(raw, (n) => p.members.length > 0 && named(p.members, n));
  if (kept !== undefined) await fs.writeFile(path, Buffer.from(kept, 'latin1'));
  if (missing.length === 0) return { stdout: '', stderr: '', exitCode: 0 };
  return { stdout: '', stderr: `${missing.map((m) => `tar: ${m}: Not found in archive\n`).join('')}${FAILED}`, exitCode: 2 };
}

async function tar(args: string[], fs: IFileSystem, cwd: string, stdin: string, run: Run): Promise<ExecResult> {
  const removeFiles = args.includes('--remove-files');
  if (removeFiles) args = args.filter((a) => a !== '--remove-files');
  const owners = ownerOptions(args);
  const p = tarPlan(owners.rest);
  const early = await precheck(p, fs, cwd);
  if (early) return early;
  // `--zstd` and zstd archives are tar-zstd.ts's; what reaches here names zstd some other way (`-I zstd`, `-a`).
  if (p.zstd || ((p.op === 'x' || p.op === 't' || p.op === 'd') && /^\x28\xb5\x2f\xfd/.test(await archiveBytes(p, fs, cwd, stdin)))) {
    return { stdout: '', stderr: `tar: zstd compression is not available in the shell engine; ${SANDBOX_HINT}\n`, exitCode: 2 };
  }
  const mismatch = compressorMismatch(p, (await archiveBytes(p, fs, cwd, stdin)).slice(0, 6));
  if (mismatch) return mismatch;
  if (p.op === 'd') return compare(p, fs, cwd, stdin);
  if (p.op === 'delete') return deleteMembers(p, fs, cwd);
  args = owners.rest;
  const kept = p.op === 'x' && p.keepOld ? await keptOld(p, fs, cwd, stdin) : '';
  const argv = p.op === 'x' || p.op === 't' ? unanchoredExcludes(forJustBash(args)) : forJustBash(args);
  // --overwrite writes into a file that is there (a symlink is still replaced); --skip-old-files and
  // --keep-newer-files may keep what is there.
  const keepsOld = args.some((a) => /^--(?:skip-old-files|keep-newer-files)$/.test(a));
  if (p.op === 'x' && !p.keepOld && !p.toStdout && !keepsOld && stripCount(args) === 0) await detachMembers(p, fs, cwd, stdin, args.includes('--overwrite'));
  // GNU applies the archive's modes on extraction (masked by the umask, 022 here); just-bash only with -p.
  let r = await run(p.op === 'x' && !p.preserve && !p.toStdout ? [...argv, '-p'] : argv);
  if (kept) r = { ...r, stderr: `${r.stderr}${kept}${FAILED}`, exitCode: 2 };
  if (p.op === 'r' || p.op === 'u') r = cannotStat(r);
  if (p.op === 'c') {
    r = cannotStat(r);
    r = await unreadableMembers(r, p, fs, cwd);
    if (/^tar: Cowardly refusing to create an empty archive$/m.test(r.stderr) && !r.stderr.includes("Try 'tar --help'")) r = { ...r, stderr: `${r.stderr.replace(/\n?$/, '\n')}Try 'tar --help' or 'tar --usage' for more information.\n` };
    if (!p.dereference) r = await mendSymlinks(r, p, fs, p.chdirs.reduce((d, c) => fs.resolvePath(d, c), cwd), cwd);
    if (r.exitCode === 0) {
      const set = await setOwners(p, owners, fs, cwd, r.stdout);
      if (set.stdout !== undefined) r = { ...r, ...bytesOutput(unsafeBytesFromLatin1(set.stdout)) };
    }
    // GNU writes the archive even when no member could be read: its end-of-archive blocks.
    const path = p.archive !== undefined && p.archive !== '-' ? fs.resolvePath(cwd, p.archive) : undefined;
    if (path && p.members.length > 0 && r.exitCode !== 0 && !(await exists(fs, path)) && (!p.compressed || p.gzip)) {
      const empty = Buffer.alloc(10240);
      await fs.writeFile(path, p.gzip ? gzipSync(empty) : empty).catch(() => undefined);
    }
  }
  if (removeFiles && p.op === 'c' && r.exitCode === 0) await removeArchived(p, fs, cwd);
  if (/^tar: Invalid tar archive format$/m.test(r.stderr)) r = { ...r, stderr: r.stderr.replace(/^tar: Invalid tar archive format\n?/m, `tar: This does not look like a tar archive\n${FAILED}`), exitCode: 2 };
  if (p.op === 't' && !p.verbose && p.wildcards && p.members.length > 0) {
    // GNU matches a --wildcards pattern against the whole name without a directory's `/` (`*` matches `/` too),
    // and lists what is below a directory that matches.
    const b = await readTar(await archiveBytes(p, fs, cwd, stdin));
    const globs = p.members.map((m) => globRegex(m.replace(/\/+$/, '')));
    if (b !== undefined) r = { ...r, stdout: tarMembers(b).filter((m) => globs.some((g) => g.test(m.name.replace(/\/$/, '')))).map((m) => `${m.name}\n`).join('') };
  }
  if (p.op === 't' && p.verbose && r.exitCode === 0) {
    const b = await readTar(await archiveBytes(p, fs, cwd, stdin));
    if (b !== undefined) r = { ...r, stdout: verboseListing(b, p.members, owners.numeric) };
  }
  if ((p.op === 't' || p.op === 'x') && r.exitCode === 0) {
    const missing = await notFound(p, fs, cwd, stdin);
    if (missing) r = { ...r, stderr: `${r.stderr}${missing}${FAILED}`, exitCode: 2 };
  }
  const strip = stripCount(args);
  // Files an option kept as they were (-k, --skip-old-files, --keep-newer-files, --exclude) keep their times too.
  const keeps = p.keepOld || args.some((a) => /^--(?:skip-old-files|keep-newer-files|exclude)/.test(a) || a === '-X');
  if (p.op === 'x' && !p.toStdout && strip === 0 && !keeps && !touches(args)) await restoreTimes(p, fs, cwd, stdin);
  if (p.op === 'x' && p.verbose && strip > 0) r = await listedUnstripped(r, strip, await archiveBytes(p, fs, cwd, stdin));
  return verboseToStdout(r, p);
}

/**
 * GNU tar extracts a regular file by unlinking what is at its name and creating a new file: a symlink there is
 * replaced (its target is not written), and other hard links of an old file keep their content. just-bash's tar
 * writes into what is there, so the names of the archive's regular files that are symlinks or hard links are removed
 * first (only those: a file with one name is overwritten either way). With `symlinksOnly` (`--overwrite`, which writes
 * into an existing file), only symlinks.
 */
async function detachMembers(p: TarPlan, fs: IFileSystem, cwd: string, stdin: string, symlinksOnly: boolean): Promise<void> {
  const b = await readTar(await archiveBytes(p, fs, cwd, stdin));
  if (b === undefined) return;
  const base = p.chdirs.reduce((d, c) => fs.resolvePath(d, c), cwd);
  for (const m of tarMembers(b)) {
    if ((m.type !== '0' && m.type !== '' && m.type !== '\0' && m.type !== '7') || !named(p.members, m.name)) continue;
    const at = fs.resolvePath(base, m.name);
    if (symlinksOnly && !(await fs.lstat(at).catch(() => null))?.isSymbolicLink) continue;
    await detachName(fs, at).catch(() => undefined);
  }
}

/** `--strip-components=N` (`--strip=N`, or N as the next word) of a command line; 0 without it. */
/** Whether `-m`/`--touch` asks extraction to leave the files the time they are made. */
const touches = (args: string[]): boolean => args.some((a, i) => a === '--touch' || (/^-[A-Za-z]+$/.test(a) && a.includes('m')) || (i === 0 && /^[A-Za-z]+$/.test(a) && a.includes('m')));

/**
 * Extracted members get the modification time the archive holds (whole seconds in GNU's format), as GNU tar sets
 * it after writing each (just-bash's tar leaves the time of extraction). Symlinks keep their own; a member that was
 * not extracted (excluded, not named, refused) is left as it is.
 */
async function restoreTimes(p: TarPlan, fs: IFileSystem, cwd: string, stdin: string): Promise<void> {
  const b = await readTar(await archiveBytes(p, fs, cwd, stdin));
  if (b === undefined) return;
  const base = p.chdirs.reduce((d, c) => fs.resolvePath(d, c), cwd);
  for (const m of tarMembers(b)) {
    const name = m.name.replace(/\/+$/, '');
    if (m.type === '2' || !name || !named(p.members, name)) continue;
    const abs = fs.resolvePath(base, name);
    const st = await fs.lstat(abs).catch(() => null);
    if (!st || st.isSymbolicLink) continue;
    const when = fileTime(tarHeader(b, m).mtime * 1000);
    // GNU tar leaves the access time the extraction gave (UTIME_NOW), and sets the archived mtime.
    await fs.utimes(abs, accessTime(st), when).catch(() => undefined);
  }
}

function stripCount(args: string[]): number {
  for (const [i, a] of args.entries()) {
    const m = /^--strip(?:-components)?(?:=(\d+))?$/.exec(a);
    if (m) return Number(m[1] ?? args[i + 1] ?? 0) || 0;
  }
  return 0;
}

/** `-xv --strip-components=N`: GNU names each member as the archive stores it, not as it was written (just-bash). */
async function listedUnstripped(r: ExecResult, strip: number, raw: string): Promise<ExecResult> {
  const b = await readTar(raw);
  if (b === undefined) return r;
  const original = new Map<string, string>();
  for (const m of tarMembers(b)) {
    const rest = m.name.split('/').slice(strip).join('/');
    // just-bash names a directory with or without its `/`.
    for (const key of [rest, rest.replace(/\/$/, '')]) if (key !== '' && !original.has(key)) original.set(key, m.name);
  }
  const rename = (text: string) => text.replace(/^(?!tar: )(.+)$/gm, (line) => original.get(line) ?? line);
  return { ...r, stdout: rename(r.stdout), stderr: rename(r.stderr) };
}

/** `--remove-files`: each member operand archived is removed, a directory with what is below it (GNU tar). */
async function removeArchived(p: TarPlan, fs: IFileSystem, cwd: string): Promise<void> {
  const base = p.chdirs.reduce((d, c) => fs.resolvePath(d, c), cwd);
  for (const m of p.members) await fs.rm(fs.resolvePath(base, m), { recursive: true, force: true }).catch(() => undefined);
}

/** `tar` for just-bash's `customCommands`, over its own (gzip-command.ts has gzip). */
export function archiveCommands(): CustomCommand[] {
  const run = async (args: string[], ctx: CommandContext) => (await tarWithTransform(args, ctx)) ?? (await tarWithPositional(args, ctx)) ?? (await tarWithZstd(args, ctx)) ?? tar(args, ctx.fs, ctx.cwd, latin1FromBytes(ctx.stdin), (a) => ctx.origCommand!(a));
  // The archive written is GNU's format, with the reproducible-archive options applied (tar-reproducible.ts).
  return [
    defineCommand('tar', async (args, ctx) => {
      const r = (await tarReproducible(args, ctx, (a) => run(a, ctx))) ?? (await run(args, ctx));
      return readsStdin(args) ? r : { ...r, internalStdinConsumed: 0 };
    }),
  ];
}

/**
 * Whether a tar command line reads its stdin: an archive read from it (`-x`/`-t`/`-d` with no `-f` or `-f -`), or a
 * `-` (or `/dev/stdin`) given as a value (`-T -`, `-X -`). One that does not leaves a stdin it shares with the
 * commands after it alone (`while read -r f; do tar -xf "$f"; done < list`).
 */
function readsStdin(args: string[]): boolean {
  const p = tarPlan(args);
  if ((p.op === 'x' || p.op === 't' || p.op === 'd') && (p.archive === undefined || p.archive === '-')) return true;
  return args.some((a, i) => (a === '-' && i > 0) || a.endsWith('=-') || a === '/dev/stdin' || a.endsWith('=/dev/stdin'));
}
