/**
 * `git apply [--check] [-R] [-v] [--reject] [-pN] [PATCH…]` (stdin without a PATCH) as git 2.43 applies a unified
 * diff to the work tree, in or out of a repository: every hunk must match exactly (git has no fuzz), at the line its
 * header gives or the nearest line either way, at the start of the file when it starts at line 1 and at its end when
 * it has no trailing context; nothing is written unless every file applies (`error: patch failed: f:1`, `error: f:
 * patch does not apply`, exit 1), except under `--reject`, which applies the hunks that fit and saves the others to
 * `FILE.rej`. A created file must not exist, a deleted one goes. Lines the patch adds with trailing whitespace are
 * reported as git's default `--whitespace=warn` does. Renames, copies, mode changes, binary patches, `--index`,
 * `--cached`, `-3` and the summaries (`--stat`, `--numstat`) are refused loudly.
 * @see https://git-scm.com/docs/git-apply
 */
import { parsePatch, type FilePatch, type Hunk } from './patch-hunks.ts';
import { GitExit, refuse, type GitRun } from './git-repo.ts';

interface ApplyOptions {
  check: boolean;
  reverse: boolean;
  verbose: boolean;
  reject: boolean;
  strip: number;
  whitespace: boolean;
}

/** One file's patch, planned: its name, the lines it ends with (null: not applied), the hunks that failed, what git says. */
interface Planned {
  name: string;
  abs: string;
  result: string[] | null;
  failed: Hunk[];
  messages: string;
  mode: number | undefined;
  patch: FilePatch;
}

/** The first line of `from` at or nearest `pos` where it sits in `lines`, with git's anchoring; -1 when none. */
function findPos(lines: string[], from: string[], pos: number, atStart: boolean, atEnd: boolean): number {
  const fits = (p: number) => p >= 0 && p + from.length <= lines.length && from.every((l, k) => lines[p + k] === l);
  if (atStart && atEnd) return lines.length === from.length && fits(0) ? 0 : -1;
  if (atStart) return fits(0) ? 0 : -1;
  if (atEnd) return fits(lines.length - from.length) ? lines.length - from.length : -1;
  const start = Math.min(Math.max(pos, 0), lines.length);
  for (let d = 0; d <= lines.length; d++) {
    if (fits(start - d)) return start - d;
    if (d > 0 && fits(start + d)) return start + d;
  }
  return -1;
}

/** `name` less its first `n` directories, as git strips `-p`: a name with fewer keeps its last component. */
function strip(name: string, n: number): string {
  const parts = name.split('/');
  return parts.slice(Math.min(n, parts.length - 1)).join('/');
}

/** The diff text split at `diff --git` headers, each part with the mode a new file gets. */
function fileBlocks(text: string): Array<{ text: string; mode: number | undefined }> {
  const starts = [...text.matchAll(/^diff --git /gm)].map((m) => m.index!);
  if (starts.length === 0) return [{ text, mode: undefined }];
  return starts.map((s, k) => {
    const block = text.slice(s, starts[k + 1] ?? text.length);
    const head = block.slice(0, block.search(/^(---|@@) /m) >>> 0);
    if (/^(rename|copy) (from|to) |^(old|new) mode |^GIT binary patch|^Binary files /m.test(head + block.slice(0, 2000))) {
      refuse('git apply of a rename, copy, mode change or binary patch');
    }
    const mode = /^new file mode (\d+)/m.exec(head);
    return { text: block, mode: mode ? parseInt(mode[1]!, 8) & 0o777 : undefined };
  });
}

/**
 * git's whitespace warnings for one hunk, as it checks each hunk before fitting it: the lines it adds (`-R`: the
 * lines it removes) that end in blanks, named by `source` and their line in the patch (the hunk's text starts on
 * line `first`).
 */
function whitespace(h: Hunk, source: string, first: number, reverse: boolean): { report: string; count: number } {
  let report = '';
  let count = 0;
  h.text.split('\n').forEach((l, k) => {
    if (k > 0 && l.startsWith(reverse ? '-' : '+') && /[ \t]$/.test(l)) {
      report += `${source}:${first + k}: trailing whitespace.\n${l.slice(1)}\n`;
      count++;
    }
  });
  return { report, count };
}

/** Plans one file's patch against the file system: the patched lines, or the hunks that did not fit. */
async function plan(run: GitRun, p: FilePatch, mode: number | undefined, o: ApplyOptions, check: (h: Hunk) => string): Promise<Planned> {
  const [fromNone, toNone] = o.reverse ? [p.newNone, p.oldNone] : [p.oldNone, p.newNone];
  const raw = (fromNone ? (o.reverse ? p.oldName : p.newName) : o.reverse ? p.newName : p.oldName) ?? '';
  const name = strip(raw, o.strip);
  const abs = run.fs.resolvePath(run.cwd, name);
  const planned: Planned = { name, abs, result: null, failed: [], messages: '', mode, patch: p };
  const exists = await run.fs.exists(abs);
  if (fromNone && exists) return { ...planned, messages: `error: ${name}: already exists in working directory\n` };
  if (!fromNone && !exists) return { ...planned, messages: `error: ${name}: No such file or directory\n` };
  const text = exists ? Buffer.from(await run.fs.readFileBuffer(abs)).toString('latin1') : '';
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  p.hunks.forEach((h, k) => {
    // Without --reject git stops at the first hunk that does not fit.
    if (planned.failed.length > 0 && !o.reject) return;
    planned.messages += check(h);
    const [from, to, oldPos, newPos] = o.reverse ? [h.new, h.old, h.newAt, h.at] : [h.old, h.new, h.at, h.newAt];
    const at = findPos(lines, from, newPos - 1, oldPos <= 1, h.post === 0);
    if (at < 0) {
      planned.failed.push(h);
      const searched = o.verbose || o.reject ? `error: while searching for:\n${from.join('')}\n` : '';
      planned.messages += `${searched}error: patch failed: ${name}:${from.length === 0 ? oldPos - 1 : oldPos}\n`;
      return;
    }
    const offset = at - (newPos - 1);
    if (offset !== 0 && (o.verbose || o.reject)) planned.messages += `Hunk #${k + 1} succeeded at ${at + 1} (offset ${offset} line${Math.abs(offset) === 1 ? '' : 's'}).\n`;
    lines.splice(at, from.length, ...to);
  });
  if (planned.failed.length === 0 || o.reject) planned.result = toNone && lines.length === 0 ? [] : lines;
  if (toNone && lines.length > 0 && planned.failed.length === 0) return { ...planned, result: null, messages: `error: removal patch leaves file contents\nerror: ${name}: patch does not apply\n` };
  if (planned.failed.length > 0 && !o.reject) planned.messages += `error: ${name}: patch does not apply\n`;
  return planned;
}

/** `git apply`; `stdin` is the command's standard input. Returns the exit status (messages on the run's stderr). */
export async function applyCommand(run: GitRun, args: string[], stdin: string): Promise<number> {
  const o: ApplyOptions = { check: false, reverse: false, verbose: false, reject: false, strip: 1, whitespace: true };
  const inputs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--check') o.check = true;
    else if (a === '-R' || a === '--reverse') o.reverse = true;
    else if (a === '-v' || a === '--verbose') o.verbose = true;
    else if (a === '--reject') o.reject = true;
    else if (a === '-q' || a === '--quiet') o.verbose = false;
    else if (/^-p\d+$/.test(a)) o.strip = Number(a.slice(2));
    else if (a === '-p') o.strip = Number(args[++i]);
    else if (a === '--whitespace=nowarn') o.whitespace = false;
    else if (a === '--whitespace=warn' || a === '--recount' || a === '--unsafe-paths') continue;
    else if (a === '--') inputs.push(...args.slice(i + 1)), (i = args.length);
    else if (a.startsWith('-') && a !== '-') refuse(`git apply ${a}`);
    else inputs.push(a);
  }
  const sources: Array<{ name: string; text: string }> = [];
  for (const f of inputs.length > 0 ? inputs : ['-']) {
    if (f === '-') sources.push({ name: '<stdin>', text: stdin });
    else {
      try {
        sources.push({ name: f, text: Buffer.from(await run.fs.readFileBuffer(run.fs.resolvePath(run.cwd, f))).toString('latin1') });
      } catch {
        throw new GitExit(`error: can't open patch '${f}': No such file or directory\n`, 128);
      }
    }
  }
  let err = '';
  let whitespaceCount = 0;
  const planned: Planned[] = [];
  for (const s of sources) {
    const blocks = fileBlocks(s.text);
    const patches = blocks.flatMap((b) => parsePatch(b.text).filter((p) => p.oldName !== undefined).map((p) => ({ p, mode: b.mode })));
    if (patches.length === 0) throw new GitExit('error: No valid patches in input (allow with "--allow-empty")\n', 128);
    // Where each hunk starts in the patch, for the whitespace warnings.
    const lineOf = new Map<Hunk, number>();
    let cursor = 0;
    for (const h of patches.flatMap(({ p }) => p.hunks)) {
      const at = s.text.indexOf(h.text, cursor);
      if (at < 0) continue;
      lineOf.set(h, s.text.slice(0, at).split('\n').length);
      cursor = at + h.text.length;
    }
    const check = (h: Hunk) => {
      if (!o.whitespace) return '';
      const ws = whitespace(h, s.name, lineOf.get(h) ?? 1, o.reverse);
      whitespaceCount += ws.count;
      return ws.report;
    };
    for (const { p, mode } of patches) planned.push(await plan(run, p, mode, o, check));
  }
  for (const p of planned) {
    if (o.verbose || o.reject) err += `Checking patch ${p.name}...\n`;
    err += p.messages;
  }
  const failed = planned.some((p) => p.result === null || p.failed.length > 0);
  if (failed && !o.reject) {
    run.err.push(err);
    return 1;
  }
  if (whitespaceCount > 0) err += `warning: ${whitespaceCount} line${whitespaceCount === 1 ? '' : 's'} add${whitespaceCount === 1 ? 's' : ''} whitespace errors.\n`;
  if (!o.check) {
    for (const p of planned) {
      if (p.result === null) continue;
      const toNone = o.reverse ? p.patch.oldNone : p.patch.newNone;
      if (toNone && p.result.length === 0) await run.fs.rm(p.abs);
      else {
        await run.fs.writeFile(p.abs, Buffer.from(p.result.join(''), 'latin1'));
        if (p.mode !== undefined && !o.reverse) await run.fs.chmod(p.abs, p.mode);
      }
      if (p.failed.length > 0) {
        err += `Applying patch ${p.name} with ${p.failed.length} reject${p.failed.length === 1 ? '' : 's'}...\n`;
        for (let k = 0; k < p.patch.hunks.length; k++) {
          err += p.failed.includes(p.patch.hunks[k]!) ? `Rejected hunk #${k + 1}.\n` : `Hunk #${k + 1} applied cleanly.\n`;
        }
        const rej = `diff a/${p.name} b/${p.name}\t(rejected hunks)\n${p.failed.map((h) => h.text).join('')}`;
        await run.fs.writeFile(`${p.abs}.rej`, Buffer.from(rej, 'latin1'));
      } else if (o.verbose || o.reject) err += `Applied patch ${p.name} cleanly.\n`;
    }
  }
  run.err.push(err);
  return failed ? 1 : 0;
}
