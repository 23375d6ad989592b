/**
 * What every `git` subcommand of the shell engine shares: the run's context (the sprite's filesystem through
 * isomorphic-git's adapter, the working directory, the exported environment, the engine's clock), finding the
 * repository above the working directory, and the three trees git compares — HEAD's tree, the index and the
 * working tree — as flat maps of path → blob id and mode. Blob ids of the working tree are always hashed from the
 * content (never taken from the index's stat cache, which the VFS's inode-less stats cannot make safe).
 * @see https://git-scm.com/docs/gitrepository-layout, https://git-scm.com/docs/index-format
 */
import { createHash } from 'node:crypto';
import git from 'isomorphic-git';
import type { IFileSystem } from 'just-bash';
import { gitFs, type GitFs } from './git-fs.ts';
import { nextTurn } from '../../../runtime/event-loop.ts';

/** The hint every refusal of the shell engine's `git` ends with. */
export const GIT_HINT = 'run spritzer with --exec sandbox';

/** A finished git run: what it printed and its status. */
export class GitExit extends Error {
  constructor(
    readonly stderr: string,
    readonly code: number,
  ) {
    super(stderr);
  }
}

/** git's error for a revision it cannot resolve (and that is no path either): exit 128. */
export const unknownRevision = (rev: string) =>
  new GitExit(`fatal: ambiguous argument '${rev}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'\n`, 128);

/** `fatal: MSG` and exit 128, git's `die()`. */
export const die = (msg: string): never => {
  throw new GitExit(`fatal: ${msg}\n`, 128);
};

/** A loud refusal of what the shell engine's git cannot do: exit 2, naming `--exec sandbox`. */
export const refuse = (what: string): never => {
  throw new GitExit(`git: ${what} is not available in the shell engine; ${GIT_HINT}\n`, 2);
};

/** One git command run. */
export interface GitRun {
  fs: IFileSystem;
  /** isomorphic-git's `fs` option. */
  gfs: { promises: GitFs };
  cwd: string;
  /** What the run printed, as byte strings (one char per byte). */
  out: string[];
  /** What it printed on stderr, UTF-8 text, each message with the stdout written before it. */
  err: StderrLog;
  /** The exported environment (what a real git process would inherit). */
  env: Record<string, string>;
  /** Epoch ms, the engine's clock. */
  now: () => number;
  /** The sprite's hostname (the fallback e-mail's domain). */
  hostname: string;
  /** `-c name=value` settings of the command line. */
  overrides: Array<[string, string]>;
  /** `core.quotePath` (default true): whether printed paths quote their non-ASCII bytes as octal escapes. */
  quoteFully: boolean;
}

/** A repository: its work tree and its `.git` directory. */
export interface Repo {
  dir: string;
  gitdir: string;
}

/** UTF-8 text as the byte string (one char per byte) git's output is collected in. */
export const bytesOf = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

/** Prints UTF-8 text on the run's stdout. */
export function print(run: GitRun, text: string): void {
  run.out.push(bytesOf(text));
}

/**
 * A path as git's quote_c_style prints it: in double quotes with C escapes when it holds a control byte, `"`, `\`,
 * DEL or (with `fully`, git's `core.quotePath`) a byte over 0x7f; a space is quoted too when `sp`. Else as it is.
 */
export function quotePath(path: string, sp = false, fully = true): string {
  const bytes = Buffer.from(path);
  const special = (b: number) => b < 0x20 || b === 0x22 || b === 0x5c || b === 0x7f || (fully && b > 0x7f) || (sp && b === 0x20);
  if (!bytes.some(special)) return path;
  const named: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 0x22: '\\"', 0x5c: '\\\\' };
  const kept: number[] = [];
  let out = '"';
  const flush = () => {
    out += Buffer.from(kept.splice(0)).toString('utf8');
  };
  for (const b of bytes) {
    if (!special(b) || b === 0x20) {
      kept.push(b);
      continue;
    }
    flush();
    out += named[b] ?? `\\${b.toString(8).padStart(3, '0')}`;
  }
  flush();
  return `${out}"`;
}

/** The path printer of `run`: {@link quotePath} as its `core.quotePath` asks. */
export const pathQuoter = (run: GitRun) => (path: string) => quotePath(path, false, run.quoteFully);

/** A new run's context. */
export function newRun(fs: IFileSystem, cwd: string, env: Record<string, string>, now: () => number, hostname: string): GitRun {
  const out: string[] = [];
  return { fs, gfs: { promises: gitFs(fs) }, cwd, env, now, hostname, overrides: [], quoteFully: true, out, err: new StderrLog(out) };
}

/**
 * A run's stderr messages, each pushed with the length of the stdout pushed before it (`marks`: [stdout characters,
 * message characters]), so that where the two streams meet they come in the order git delivers them: stderr
 * unbuffered, stdout through stdio's 4096-byte buffer (output-order.ts, 'buffered'): `git init r 2>&1` prints its
 * hint before `Initialized empty Git repository`.
 */
export class StderrLog extends Array<string> {
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }
  readonly marks: Array<[number, number]> = [];
  constructor(private readonly stdout: readonly string[] = []) {
    super();
  }
  override push(...messages: string[]): number {
    const at = this.stdout.reduce((n, s) => n + s.length, 0);
    for (const m of messages) if (m !== '') this.marks.push([at, m.length]);
    return super.push(...messages);
  }
}

/** The repository whose work tree holds `from` (its `.git` directory found upwards), or null. */
export async function findRepo(run: GitRun, from = run.cwd): Promise<Repo | null> {
  let dir = from;
  for (;;) {
    const gitdir = dir === '/' ? '/.git' : `${dir}/.git`;
    try {
      if ((await run.fs.stat(gitdir)).isDirectory && (await run.fs.exists(`${gitdir}/HEAD`))) return { dir, gitdir };
    } catch {
      // not here: look in the parent
    }
    if (dir === '/') return null;
    dir = dir.slice(0, dir.lastIndexOf('/')) || '/';
  }
}

/** The repository above the working directory, or git's `fatal: not a git repository` (exit 128). */
export async function needRepo(run: GitRun): Promise<Repo> {
  const repo = await findRepo(run);
  return repo ?? die('not a git repository (or any of the parent directories): .git');
}

/** A file of a tree or the index: its blob id and git mode (`100644`, `100755`, `120000`, `160000`). */
export interface Entry {
  oid: string;
  mode: string;
}

/** path → entry, paths relative to the work tree with `/`, in git's order when iterated after {@link sortedPaths}. */
export type Flat = Map<string, Entry>;

/** git's path order: byte order of the UTF-8 paths. */
export function sortedPaths(paths: Iterable<string>): string[] {
  return [...paths].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** The commit id `ref` names (`HEAD`, a branch, a tag, an id or its prefix), or null when it names none. */
export async function resolveCommit(run: GitRun, repo: Repo, ref: string): Promise<string | null> {
  // `@{N}`, `@{upstream}`… read the reflog or the upstream config, which this engine does not keep.
  if (ref.includes('@{')) refuse(`the revision ${ref} (reflogs and @{…} are not kept)`);
  // `^{}` and `^{commit}` peel to the commit, which every step here already does.
  const m = /^(.*?)((?:[~^]\d*|\^\{(?:commit)?\})*)$/.exec(ref)!;
  let base = m[1]!;
  if (base === '@') base = 'HEAD';
  let oid: string | null = null;
  try {
    oid = await git.resolveRef({ fs: run.gfs, gitdir: repo.gitdir, ref: base });
  } catch {
    if (/^[0-9a-f]{4,40}$/.test(base)) {
      try {
        oid = await git.expandOid({ fs: run.gfs, gitdir: repo.gitdir, oid: base });
      } catch {
        oid = null;
      }
    }
  }
  if (!oid) return null;
  oid = await peel(run, repo, oid);
  for (const step of m[2]!.match(/\^\{(?:commit)?\}|[~^]\d*/g) ?? []) {
    if (step.endsWith('}')) continue;
    const n = step.length > 1 ? Number(step.slice(1)) : 1;
    if (step[0] === '~') {
      for (let i = 0; i < n && oid; i++) oid = (await readCommit(run, repo, oid)).parent[0] ?? null;
    } else if (n > 0) oid = (await readCommit(run, repo, oid)).parent[n - 1] ?? null;
    if (!oid) return null;
  }
  return oid;
}

/** The commit an annotated tag points to (a commit id is returned as is). */
async function peel(run: GitRun, repo: Repo, oid: string): Promise<string> {
  for (;;) {
    const o = await git.readObject({ fs: run.gfs, gitdir: repo.gitdir, oid, format: 'parsed' });
    if (o.type !== 'tag') return oid;
    oid = (o.object as { object: string }).object;
  }
}

/** A parsed commit. */
export interface Commit {
  oid: string;
  tree: string;
  parent: string[];
  author: Person;
  committer: Person;
  message: string;
}

/** An author or committer line. `timezoneOffset` is isomorphic-git's: minutes west of UTC (UTC+1 is -60). */
export interface Person {
  name: string;
  email: string;
  timestamp: number;
  timezoneOffset: number;
}

/** The commit `oid`. */
export async function readCommit(run: GitRun, repo: Repo, oid: string): Promise<Commit> {
  const c = await git.readCommit({ fs: run.gfs, gitdir: repo.gitdir, oid });
  return { oid: c.oid, ...c.commit };
}

/** Every commit reachable from the commits `from` (themselves included). */
export async function reachableCommits(run: GitRun, repo: Repo, from: readonly string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  const todo = [...from];
  while (todo.length) {
    const oid = todo.pop()!;
    if (seen.has(oid)) continue;
    seen.add(oid);
    todo.push(...(await readCommit(run, repo, oid)).parent);
  }
  return seen;
}

/** HEAD's commit id, or null on an unborn branch. */
export async function headCommit(run: GitRun, repo: Repo): Promise<string | null> {
  try {
    return await git.resolveRef({ fs: run.gfs, gitdir: repo.gitdir, ref: 'HEAD' });
  } catch {
    return null;
  }
}

/** The branch HEAD is on (`main`), or null when HEAD is detached. */
export async function currentBranch(run: GitRun, repo: Repo): Promise<string | null> {
  const head = (await run.fs.readFile(`${repo.gitdir}/HEAD`)).trim();
  return head.startsWith('ref: refs/heads/') ? head.slice('ref: refs/heads/'.length) : null;
}

/** The files of tree `oid` (recursively), or an empty map for null. */
export async function flattenTree(run: GitRun, repo: Repo, oid: string | null): Promise<Flat> {
  const flat: Flat = new Map();
  const visit = async (tree: string, prefix: string): Promise<void> => {
    const { tree: entries } = await git.readTree({ fs: run.gfs, gitdir: repo.gitdir, oid: tree });
    for (const e of entries) {
      if (e.type === 'tree') await visit(e.oid, `${prefix}${e.path}/`);
      else flat.set(`${prefix}${e.path}`, { oid: e.oid, mode: e.mode });
    }
  };
  if (oid) await visit(oid, '');
  return flat;
}

/** The files of commit `oid`'s tree. */
export async function commitFiles(run: GitRun, repo: Repo, oid: string | null): Promise<Flat> {
  return flattenTree(run, repo, oid ? (await readCommit(run, repo, oid)).tree : null);
}

/**
 * The index's entries (stage 0; a conflicted path's stage 1–3 entries are not produced by this engine), read from
 * `.git/index` (versions 2–3: the 62-byte entry, the path, NUL padding to 8 bytes).
 */
export async function readIndex(run: GitRun, repo: Repo): Promise<Flat> {
  const flat: Flat = new Map();
  let buf: Buffer;
  try {
    buf = Buffer.from(await run.fs.readFileBuffer(`${repo.gitdir}/index`));
  } catch {
    return flat;
  }
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') return flat;
  const version = buf.readUInt32BE(4);
  if (version !== 2 && version !== 3) return refuse(`an index of version ${version}`);
  const count = buf.readUInt32BE(8);
  let at = 12;
  for (let i = 0; i < count; i++) {
    const mode = buf.readUInt32BE(at + 24);
    const oid = buf.toString('hex', at + 40, at + 60);
    const flags = buf.readUInt16BE(at + 60);
    const extended = version === 3 && (flags & 0x4000) !== 0;
    const nameAt = at + 62 + (extended ? 2 : 0);
    const end = buf.indexOf(0, nameAt);
    const path = buf.toString('utf8', nameAt, end);
    if (((flags >> 12) & 3) === 0) flat.set(path, { oid, mode: mode.toString(8).padStart(6, '0') });
    const length = end - at;
    at += Math.ceil((length + 1) / 8) * 8;
  }
  return flat;
}

/**
 * Writes `flat` as the index (version 2, paths in git's order, stat data zero: this engine never trusts it), with
 * the trailing SHA-1 git checks.
 */
export async function writeIndex(run: GitRun, repo: Repo, flat: Flat): Promise<void> {
  const parts: Buffer[] = [];
  const head = Buffer.alloc(12);
  head.write('DIRC', 0, 'latin1');
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(flat.size, 8);
  parts.push(head);
  for (const path of sortedPaths(flat.keys())) {
    const e = flat.get(path)!;
    const name = Buffer.from(path);
    const entry = Buffer.alloc(Math.ceil((62 + name.length + 1) / 8) * 8);
    entry.writeUInt32BE(parseInt(e.mode, 8), 24);
    entry.write(e.oid, 40, 'hex');
    entry.writeUInt16BE(Math.min(name.length, 0xfff), 60);
    name.copy(entry, 62);
    parts.push(entry);
  }
  const body = Buffer.concat(parts);
  await run.fs.writeFile(`${repo.gitdir}/index`, Buffer.concat([body, createHash('sha1').update(body).digest()]));
}

/** Stores `bytes` as a blob; its id. */
export async function writeBlob(run: GitRun, repo: Repo, bytes: Uint8Array): Promise<string> {
  return git.writeBlob({ fs: run.gfs, gitdir: repo.gitdir, blob: bytes });
}

/** git's blob id of `bytes`. */
export function blobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** A work-tree file: its mode, and its bytes read only when asked. */
export interface WorkFile {
  mode: string;
  read(): Promise<Uint8Array>;
}

/** The bytes a work-tree path holds for git: a file's content, a symlink's target. */
export async function workBytes(run: GitRun, repo: Repo, path: string): Promise<Uint8Array> {
  const abs = `${repo.dir === '/' ? '' : repo.dir}/${path}`;
  const s = await run.fs.lstat(abs);
  if (s.isSymbolicLink) return Buffer.from(await run.fs.readlink(abs));
  return run.fs.readFileBuffer(abs);
}

/** The git mode of a work-tree stat. */
const modeOf = (s: { isSymbolicLink: boolean; mode: number }) => (s.isSymbolicLink ? '120000' : s.mode & 0o111 ? '100755' : '100644');

/** Entries visited between turns of the event loop, so a large tree does not hold the server. */
const TURN_EVERY = 2000;

/**
 * The work tree's files (not `.git`), path → {@link WorkFile}; a nested repository is one entry `dir/` (mode
 * 160000). Ignored paths (`.gitignore` files,
 * `.git/info/exclude`) are left out and listed in `ignored` when `withIgnored` (an ignored directory once, as `dir/`),
 * or walked like the others with `includeIgnored`.
 */
export async function walkWorkTree(run: GitRun, repo: Repo, tracked: ReadonlySet<string>, withIgnored = false, includeIgnored = false): Promise<{ files: Map<string, WorkFile>; ignored: string[] }> {
  const files = new Map<string, WorkFile>();
  const ignored: string[] = [];
  let seen = 0;
  const visit = async (rel: string): Promise<void> => {
    const abs = rel ? `${repo.dir === '/' ? '' : repo.dir}/${rel}` : repo.dir;
    let names: string[];
    try {
      names = await run.fs.readdir(abs);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (++seen % TURN_EVERY === 0) await nextTurn();
      if (!rel && name === '.git') continue;
      const path = rel ? `${rel}/${name}` : name;
      const full = `${abs === '/' ? '' : abs}/${name}`;
      let s;
      try {
        s = await run.fs.lstat(full);
      } catch {
        continue;
      }
      if (!includeIgnored && !tracked.has(path) && (await isIgnored(run, repo, s.isDirectory ? `${path}/` : path))) {
        // git lists an ignored directory only when some file lies under it.
        if (withIgnored && (!s.isDirectory || (await holdsFile(run, full)))) ignored.push(s.isDirectory ? `${path}/` : path);
        continue;
      }
      if (s.isDirectory) {
        if (await run.fs.exists(`${full}/.git`)) {
          if (!tracked.has(path)) files.set(`${path}/`, { mode: '160000', read: async () => new Uint8Array() });
          continue;
        }
        await visit(path);
      } else files.set(path, { mode: modeOf(s), read: () => workBytes(run, repo, path) });
    }
  };
  await visit('');
  return { files, ignored };
}

/** Whether directory `abs` holds a file (or symlink) at any depth. */
async function holdsFile(run: GitRun, abs: string): Promise<boolean> {
  for (const name of await run.fs.readdir(abs).catch(() => [] as string[])) {
    const s = await run.fs.lstat(`${abs}/${name}`);
    if (!s.isDirectory || (await holdsFile(run, `${abs}/${name}`))) return true;
  }
  return false;
}

/** Whether `path` (a directory's with a trailing `/`) is ignored by the repository's exclude files. */
export async function isIgnored(run: GitRun, repo: Repo, path: string): Promise<boolean> {
  const dir = path.endsWith('/');
  const p = dir ? path.slice(0, -1) : path;
  // isomorphic-git reads `.gitignore` files and `.git/info/exclude`; a directory is tested as `dir/` by `ignore`.
  return git.isIgnored({ fs: run.gfs, dir: repo.dir, gitdir: repo.gitdir, filepath: dir ? `${p}/` : p });
}

/**
 * Short options as git's parse-options reads them: `-qam MSG` is `-q -a -m MSG`, `-mMSG` is `-m MSG`; the letters
 * of `valued` take a value (the rest of the word, else the next argument). Words after `--` are left alone.
 */
export function splitShort(args: string[], valued: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      out.push(...args.slice(i));
      break;
    }
    if (!/^-[A-Za-z]{2,}/.test(a) && !/^-[A-Za-z]./.test(a)) {
      out.push(a);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (!/[A-Za-z]/.test(c)) {
        out.push(a);
        break;
      }
      out.push(`-${c}`);
      if (valued.includes(c)) {
        if (j + 1 < a.length) out.push(a.slice(j + 1));
        else if (i + 1 < args.length) out.push(args[++i]!);
        break;
      }
    }
  }
  return out;
}

/** A path given on the command line, relative to the work tree (`..` and `.` resolved), or null when outside. */
export function repoPath(run: GitRun, repo: Repo, arg: string): string | null {
  const abs = run.fs.resolvePath(run.cwd, arg);
  if (abs === repo.dir) return '';
  const root = repo.dir === '/' ? '/' : `${repo.dir}/`;
  return abs.startsWith(root) ? abs.slice(root.length).replace(/\/+$/, '') : null;
}

/** The prefix of the working directory inside the work tree (`src/`), empty at the top. */
export function cwdPrefix(run: GitRun, repo: Repo): string {
  const p = repoPath(run, repo, '.');
  return p ? `${p}/` : '';
}

/** `path` (relative to the work tree) as git prints it relative to the working directory (`../a`, `b/c`). */
export function relative(run: GitRun, repo: Repo, path: string): string {
  const prefix = cwdPrefix(run, repo);
  if (!prefix) return path;
  const from = prefix.slice(0, -1).split('/');
  const to = path.split('/');
  let i = 0;
  while (i < from.length && i < to.length - 1 && from[i] === to[i]) i++;
  return [...from.slice(i).map(() => '..'), ...to.slice(i)].join('/');
}

/** Whether `path` is selected by the pathspecs (`dir` selects everything under it; none selects all). */
export function inSpecs(path: string, specs: string[] | null): boolean {
  if (!specs) return true;
  return specs.some((s) => s === '' || path === s || path.startsWith(`${s}/`) || (/[*?[]/.test(s) && globToRegExp(s).test(path)));
}

/** A pathspec glob (`*.ts`: `*` also crosses `/`, as git's default pathspec magic does). */
function globToRegExp(glob: string): RegExp {
  let re = '';
  for (const ch of glob) re += ch === '*' ? '.*' : ch === '?' ? '.' : /[\\^$.|+(){}[\]]/.test(ch) ? `\\${ch}` : ch;
  return new RegExp(`^${re}(/.*)?$`);
}
