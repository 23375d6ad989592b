/**
 * The diff output families of the shell engine's `git`: which paths differ between two sides (a tree, the index or
 * the work tree; exact renames paired as git's default rename detection pairs them at 100%), and how git prints
 * them: the patch (`diff --git`, mode and `index` lines, unified hunks with the function line after `@@`), `--stat`,
 * `--shortstat`, `--name-only`, `--name-status` and `--summary`. The changed lines come from the shell engine's
 * line comparison (diff-engine.ts) and the hunks from its unified format (diff-format.ts).
 * @see https://git-scm.com/docs/diff-format, git's diff.c and xdiff/xemit.c
 */
import git from 'isomorphic-git';
import { compareLines } from './diff-engine.ts';
import { formatChanges, type DiffSide } from './diff-format.ts';
import { blobId, bytesOf, quotePath, sortedPaths, type Flat, type GitRun, type Repo, type WorkFile } from './git-repo.ts';

/** How a path is printed (git's quote_c_style under `core.quotePath`, git-repo.ts's quotePath). */
export type Quote = (path: string) => string;

/** One side of a path's comparison: its blob id, mode, and bytes on demand. */
export interface Side {
  oid: string;
  mode: string;
  read(): Promise<Uint8Array>;
}

/** A path that differs: its old side (null: added) and new side (null: deleted); `from` for a rename. */
export interface Pair {
  path: string;
  from?: string;
  /** `from` only names the old side (`diff --no-index` of two files), no rename. */
  labels?: boolean;
  a: Side | null;
  b: Side | null;
}

/** The sides of a tree's or the index's entries (blobs read from the object store). */
export function storedSides(run: GitRun, repo: Repo, flat: Flat): Map<string, Side> {
  const sides = new Map<string, Side>();
  for (const [path, e] of flat) {
    sides.set(path, { oid: e.oid, mode: e.mode, read: async () => (await git.readBlob({ fs: run.gfs, gitdir: repo.gitdir, oid: e.oid })).blob });
  }
  return sides;
}

/** The sides of work-tree files (their blob ids hashed from their bytes). */
export async function workSides(files: Map<string, WorkFile>): Promise<Map<string, Side>> {
  const sides = new Map<string, Side>();
  for (const [path, f] of files) {
    if (path.endsWith('/')) continue;
    const bytes = await f.read();
    sides.set(path, { oid: blobId(bytes), mode: f.mode, read: async () => bytes });
  }
  return sides;
}

/**
 * The paths whose blob or mode differ between `a` and `b` (only those `keep` accepts), in git's order; with
 * `renames`, a deleted and an added path of the same blob become one rename.
 */
export function changedPairs(a: Map<string, Side>, b: Map<string, Side>, keep: (path: string) => boolean, renames = false): Pair[] {
  const pairs: Pair[] = [];
  for (const path of sortedPaths(new Set([...a.keys(), ...b.keys()]))) {
    if (!keep(path)) continue;
    const x = a.get(path) ?? null;
    const y = b.get(path) ?? null;
    if (x && y && x.oid === y.oid && x.mode === y.mode) continue;
    pairs.push({ path, a: x, b: y });
  }
  if (!renames) return pairs;
  const deleted = pairs.filter((p) => !p.b);
  const out: Pair[] = [];
  const used = new Set<Pair>();
  for (const p of pairs) {
    if (p.a) continue;
    const src = deleted.find((d) => !used.has(d) && d.a!.oid === p.b!.oid);
    if (!src) continue;
    used.add(src);
    used.add(p);
    out.push({ path: p.path, from: src.path, a: src.a, b: p.b });
  }
  return sortedPairs([...pairs.filter((p) => !used.has(p)), ...out]);
}

const sortedPairs = (pairs: Pair[]) => {
  const order = sortedPaths(pairs.map((p) => p.path));
  return [...pairs].sort((x, y) => order.indexOf(x.path) - order.indexOf(y.path));
};

/** git's binary test: a NUL among the first 8000 bytes. */
const isBinary = (bytes: Uint8Array) => bytes.subarray(0, 8000).includes(0);

/** A blob's lines (bytes as latin1 characters) and whether its last line lacks the newline. */
function sideOf(bytes: Uint8Array): DiffSide {
  const text = Buffer.from(bytes).toString('latin1');
  if (text === '') return { lines: [], noEol: false };
  const noEol = !text.endsWith('\n');
  return { lines: (noEol ? text : text.slice(0, -1)).split('\n'), noEol };
}

/** The added and deleted line counts of a pair, or null when either side is binary. */
export async function lineCounts(p: Pair): Promise<{ added: number; deleted: number; binary: boolean; sizes: [number, number] }> {
  const x = p.a ? await p.a.read() : new Uint8Array();
  const y = p.b ? await p.b.read() : new Uint8Array();
  if (isBinary(x) || isBinary(y)) return { added: 0, deleted: 0, binary: true, sizes: [x.length, y.length] };
  if (p.a && p.b && p.a.oid === p.b.oid) return { added: 0, deleted: 0, binary: false, sizes: [x.length, y.length] };
  const changes = changesOf(sideOf(x), sideOf(y), 0);
  return { added: changes.reduce((n, c) => n + c.inserted, 0), deleted: changes.reduce((n, c) => n + c.deleted, 0), binary: false, sizes: [x.length, y.length] };
}

function changesOf(a: DiffSide, b: DiffSide, context: number) {
  const classes = new Map<string, number>();
  const cls = (line: string) => {
    let n = classes.get(line);
    if (n === undefined) classes.set(line, (n = classes.size + 1));
    return n;
  };
  return compareLines(a.lines.map(cls), b.lines.map(cls), context);
}

/** xdiff's default function line: one starting with a letter, `_` or `$`, cut to 80 bytes, trailing space trimmed. */
function funcLine(lines: string[], before: number): string {
  for (let i = before; i >= 0; i--) {
    const l = lines[i]!;
    if (/^[A-Za-z_$]/.test(l)) return l.slice(0, 80).replace(/\s+$/, '');
  }
  return '';
}

/** The unified hunks of two texts with git's function line after each `@@ … @@`. */
function hunksOf(a: DiffSide, b: DiffSide, context: number): string {
  const text = formatChanges({ kind: 'unified', context }, changesOf(a, b, context), a, b);
  return text.replace(/^@@ -(\d+)(,\d+)? (\+\d+(?:,\d+)?) @@$/gm, (whole, start: string, count: string | undefined) => {
    // The hunk's first old line (0-based): the printed start is the line before it when the old range is empty.
    const first = count === ',0' ? Number(start) : Number(start) - 1;
    const fn = funcLine(a.lines, first - 1);
    return fn ? `${whole} ${fn}` : whole;
  });
}

const short = (oid: string) => oid.slice(0, 7);
const ZERO = '0000000';

/**
 * One pair's patch, as `git diff` prints it (`context` lines around each change); a name that needs quoting is
 * quoted with its `a/`/`b/` prefix inside the quotes (git's quote_two).
 */
export async function patchOf(p: Pair, context = 3, q: Quote = quotePath): Promise<string> {
  const from = p.from ?? p.path;
  let out = bytesOf(`diff --git ${q(`a/${from}`)} ${q(`b/${p.path}`)}\n`);
  if (!p.a) out += `new file mode ${p.b!.mode}\n`;
  else if (!p.b) out += `deleted file mode ${p.a.mode}\n`;
  else if (p.a.mode !== p.b.mode) out += `old mode ${p.a.mode}\nnew mode ${p.b.mode}\n`;
  if (p.from && !p.labels) out += bytesOf(`similarity index 100%\nrename from ${q(p.from)}\nrename to ${q(p.path)}\n`);
  const sameBlob = p.a && p.b && p.a.oid === p.b.oid;
  if (sameBlob) return out;
  const modeTail = p.a && p.b && p.a.mode === p.b.mode ? ` ${p.a.mode}` : '';
  out += `index ${p.a ? short(p.a.oid) : ZERO}..${p.b ? short(p.b.oid) : ZERO}${modeTail}\n`;
  const x = p.a ? await p.a.read() : new Uint8Array();
  const y = p.b ? await p.b.read() : new Uint8Array();
  const nameA = bytesOf(p.a ? q(`a/${from}`) : '/dev/null');
  const nameB = bytesOf(p.b ? q(`b/${p.path}`) : '/dev/null');
  if (isBinary(x) || isBinary(y)) return `${out}Binary files ${nameA} and ${nameB} differ\n`;
  if (x.length === 0 && y.length === 0) return out;
  // git's emit_diff_symbol ends a file label holding a space with a TAB, so readers that cut at the TAB get the name.
  const tab = (label: string) => (label.includes(' ') ? '\t' : '');
  return `${out}--- ${nameA}${tab(nameA)}\n+++ ${nameB}${tab(nameB)}\n${hunksOf(sideOf(x), sideOf(y), context)}`;
}

/** The patches of `pairs`. */
export async function patchText(pairs: Pair[], context = 3, q: Quote = quotePath): Promise<string> {
  let out = '';
  for (const p of pairs) out += await patchOf(p, context, q);
  return out;
}

/** `--name-only`: one path a line. */
export const nameOnly = (pairs: Pair[], q: Quote = quotePath) => pairs.map((p) => `${q(p.path)}\n`).join('');

/** `--name-status`: `M`, `A`, `D`, `T` (type change) or `R100` with both paths, tab-separated. */
export function nameStatus(pairs: Pair[], q: Quote = quotePath): string {
  return pairs.map((p) => (p.from ? `R100\t${q(p.from)}\t${q(p.path)}\n` : `${statusLetter(p)}\t${q(p.path)}\n`)).join('');
}

/** The status letter of a pair: `A`, `D`, `T` (file ↔ symlink), `M`. */
export function statusLetter(p: Pair): string {
  if (p.from) return 'R';
  if (!p.a) return 'A';
  if (!p.b) return 'D';
  return (p.a.mode === '120000') !== (p.b.mode === '120000') ? 'T' : 'M';
}

/** The `N files changed, X insertions(+), Y deletions(-)` line of `--stat` and `--shortstat`. */
export function shortstatLine(files: number, added: number, deleted: number): string {
  if (!files) return ' 0 files changed\n';
  let s = ` ${files} file${files === 1 ? '' : 's'} changed`;
  if (added || deleted === 0) s += `, ${added} insertion${added === 1 ? '' : 's'}(+)`;
  if (deleted || added === 0) s += `, ${deleted} deletion${deleted === 1 ? '' : 's'}(-)`;
  return `${s}\n`;
}

/** `--shortstat`. */
export async function shortstat(pairs: Pair[]): Promise<string> {
  let added = 0;
  let deleted = 0;
  for (const p of pairs) {
    const c = await lineCounts(p);
    added += c.added;
    deleted += c.deleted;
  }
  return pairs.length ? shortstatLine(pairs.length, added, deleted) : '';
}

/** `--stat` over 80 columns, as git's `show_stats` lays it out (name, count, a scaled `+`/`-` graph). */
export async function statText(pairs: Pair[], width = 80, q: Quote = quotePath): Promise<string> {
  if (!pairs.length) return '';
  const rows = [];
  for (const p of pairs) rows.push({ name: p.from ? renameShown(p.from, p.path, q) : q(p.path), ...(await lineCounts(p)) });
  const maxLen = Math.max(...rows.map((r) => r.name.length));
  const maxChange = Math.max(...rows.map((r) => r.added + r.deleted));
  const binWidth = Math.max(0, ...rows.filter((r) => r.binary).map((r) => `Bin ${r.sizes[0]} -> ${r.sizes[1]} bytes`.length));
  let numberWidth = String(maxChange).length;
  if (rows.some((r) => r.binary) && numberWidth < 3) numberWidth = 3;
  let graphWidth = maxChange + 4 > binWidth ? maxChange : binWidth - 4;
  let nameWidth = maxLen;
  if (nameWidth + numberWidth + 6 + graphWidth > width) {
    if (graphWidth > Math.floor((width * 3) / 8) - numberWidth - 6) graphWidth = Math.max(6, Math.floor((width * 3) / 8) - numberWidth - 6);
    if (nameWidth > width - numberWidth - 6 - graphWidth) nameWidth = width - numberWidth - 6 - graphWidth;
    else graphWidth = width - numberWidth - 6 - nameWidth;
  }
  const scale = (n: number) => (n && graphWidth <= maxChange ? 1 + Math.floor((n * (graphWidth - 1)) / maxChange) : n);
  let out = '';
  let added = 0;
  let deleted = 0;
  for (const r of rows) {
    let name = r.name;
    if (name.length > nameWidth) {
      name = `...${name.slice(name.length - nameWidth + 3)}`;
      const slash = name.indexOf('/');
      if (slash >= 0) name = `...${name.slice(slash)}`;
    }
    added += r.added;
    deleted += r.deleted;
    if (r.binary) {
      out += ` ${name.padEnd(nameWidth)} | ${'Bin'.padStart(numberWidth)} ${r.sizes[0]} -> ${r.sizes[1]} bytes\n`;
      continue;
    }
    const total = r.added + r.deleted;
    const graph = `${'+'.repeat(scale(r.added))}${'-'.repeat(scale(r.deleted))}`;
    out += ` ${name.padEnd(nameWidth)} | ${String(total).padStart(numberWidth)}${graph ? ` ${graph}` : ''}\n`;
  }
  return out + shortstatLine(rows.length, added, deleted);
}

/** `--summary`: ` create mode 100644 a`, ` delete mode …`, ` rename a => b (100%)`, ` mode change 100644 => 100755 a`. */
export function summaryText(pairs: Pair[], q: Quote = quotePath): string {
  let out = '';
  for (const p of pairs) {
    if (p.from) out += ` rename ${renameShown(p.from, p.path, q)} (100%)\n`;
    else if (!p.a) out += ` create mode ${p.b!.mode} ${q(p.path)}\n`;
    else if (!p.b) out += ` delete mode ${p.a.mode} ${q(p.path)}\n`;
    else if (p.a.mode !== p.b.mode) out += ` mode change ${p.a.mode} => ${p.b.mode} ${q(p.path)}\n`;
  }
  return out;
}

/** A rename as `--stat`, `--numstat` and `--summary` show it: compact, or both names in full when either needs quoting (git's pprint_rename). */
export function renameShown(from: string, to: string, q: Quote = quotePath): string {
  return q(from) !== from || q(to) !== to ? `${q(from)} => ${q(to)}` : renameText(from, to);
}

/** git's compact rename: the common leading directories and trailing part in braces (`src/{a.ts => b.ts}`). */
export function renameText(from: string, to: string): string {
  let pre = 0;
  for (let i = 0; i < Math.min(from.length, to.length) && from[i] === to[i]; i++) if (from[i] === '/') pre = i + 1;
  let suf = 0;
  for (let i = 1; i <= Math.min(from.length, to.length) - pre && from[from.length - i] === to[to.length - i]; i++) if (from[from.length - i] === '/') suf = i;
  if (!pre && !suf) return `${from} => ${to}`;
  return `${from.slice(0, pre)}{${from.slice(pre, from.length - suf)} => ${to.slice(pre, to.length - suf)}}${from.slice(from.length - suf)}`;
}

/** The forms a diff is shown in: `git diff`'s and `git log`/`show`'s output options (`none`: no diff). */
export type DiffKind = 'none' | 'patch' | 'stat' | 'shortstat' | 'numstat' | 'name-only' | 'name-status' | 'summary';

/** One output form over `pairs`, as bytes. */
async function formOf(kind: DiffKind, pairs: Pair[], context: number, q: Quote): Promise<string> {
  switch (kind) {
    case 'patch':
      return patchText(pairs, context, q);
    case 'stat':
      return bytesOf(await statText(pairs, 80, q));
    case 'shortstat':
      return bytesOf(await shortstat(pairs));
    case 'numstat': {
      let out = '';
      for (const p of pairs) {
        const c = await lineCounts(p);
        out += `${c.binary ? '-\t-' : `${c.added}\t${c.deleted}`}\t${p.from ? renameShown(p.from, p.path, q) : q(p.path)}\n`;
      }
      return bytesOf(out);
    }
    case 'name-only':
      return bytesOf(nameOnly(pairs, q));
    case 'name-status':
      return bytesOf(nameStatus(pairs, q));
    case 'summary':
      return bytesOf(summaryText(pairs, q));
    default:
      return '';
  }
}

/**
 * The diff over `pairs` in the forms `kinds` asks for, as bytes, the way git's diff_flush combines them: `-s`
 * silences all, `--name-status`/`--name-only` replace the rest, else `--numstat`, `--stat`, `--shortstat`, then
 * `--summary`, then the patch, set off by a blank line when anything came before it. `context` lines around each
 * hunk (`-U`, default 3); paths printed by `q`.
 */
export async function diffOf(kinds: DiffKind | readonly DiffKind[], pairs: Pair[], context = 3, q: Quote = quotePath): Promise<string> {
  const set = new Set(typeof kinds === 'string' ? [kinds] : kinds);
  if (set.has('none') || !pairs.length) return '';
  if (set.has('name-status')) return formOf('name-status', pairs, context, q);
  if (set.has('name-only')) return formOf('name-only', pairs, context, q);
  let out = '';
  for (const k of ['numstat', 'stat', 'shortstat', 'summary'] as const) if (set.has(k)) out += await formOf(k, pairs, context, q);
  if (set.has('patch')) out += `${out ? '\n' : ''}${await formOf('patch', pairs, context, q)}`;
  return out;
}
