/**
 * `patch` as GNU patch applies unified and normal diffs (from stdin, `-i FILE` or the second operand): the file from
 * the operand or the `---`/`+++` names (`-p N` stripped; the old name when it exists), hunks found where they say
 * or at the nearest offset (`Hunk #2 succeeded at 10 (offset 3 lines).`), failures saved to `FILE.rej` with the
 * original kept as `FILE.orig` (exit 1), `-R`, `--dry-run` (`checking file`), `-s`, `-o`, `-b`, `-d`, new files
 * from `/dev/null`. A hunk whose context does not match is retried with fuzz (`-F N`, default 2): its outer context
 * lines ignored one more at a time (`Hunk #1 succeeded at 4 with fuzz 1.`), the file's own lines kept there; a hunk
 * with less context on one side than the other must sit at that end of the file to match without fuzz. A file
 * patched with fuzz or at an offset is backed up to `FILE.orig` too (GNU's default `--backup-if-mismatch`).
 * @see https://www.gnu.org/software/diffutils/manual/html_node/Invoking-patch.html
 */
import { defineCommand, latin1FromBytes, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { errnoText, walkArgs, type InputCtx } from './text-input.ts';

interface Hunk {
  /** 1-based first old line (the line after which to insert when `old` is empty). */
  at: number;
  old: string[];
  new: string[];
  /** The hunk as it appeared, for a reject file. */
  text: string;
  /** Its leading and trailing context lines (GNU's prefix and suffix context). */
  pre: number;
  post: number;
}

interface FilePatch {
  oldName: string | undefined;
  newName: string | undefined;
  hunks: Hunk[];
  /** The input line number of its first hunk, for messages. */
  line: number;
  headers: string[];
}

interface Options {
  strip: number | undefined;
  reverse: boolean;
  dryRun: boolean;
  silent: boolean;
  output: string | undefined;
  backup: boolean;
  dir: string | undefined;
  input: string | undefined;
  /** `-t`/`-f`: never ask (GNU asks which file, and reads no answer from a script's stdin). */
  batch: boolean;
  /** `-F N`: the most outer context lines a hunk may ignore. */
  fuzz: number;
  /** `--no-backup-if-mismatch`: no `.orig` for a file patched with fuzz or at an offset. */
  noMismatchBackup: boolean;
}

/** The file patches of diff text `text` (lines keep their `\n`; `\ No newline` drops the one before). */
function parsePatch(text: string): FilePatch[] {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const patches: FilePatch[] = [];
  let current: FilePatch | undefined;
  const fresh = (line: number): FilePatch => {
    const p: FilePatch = { oldName: undefined, newName: undefined, hunks: [], line, headers: [] };
    patches.push(p);
    return p;
  };
  const name = (l: string) => l.slice(4).replace(/\n$/, '').split('\t')[0]!.trim();
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      // GNU names the line after the headers (the first hunk's).
      current = fresh(i + 3);
      current.oldName = name(l);
      current.newName = name(lines[i + 1]!);
      current.headers.push(l, lines[i + 1]!);
      i++;
      continue;
    }
    const u = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(l);
    if (u) {
      current ??= fresh(i + 1);
      let oldLeft = u[2] === undefined ? 1 : Number(u[2]);
      let newLeft = u[4] === undefined ? 1 : Number(u[4]);
      const h: Hunk = { at: Number(u[1]) + (oldLeft === 0 ? 1 : 0), old: [], new: [], text: l, pre: 0, post: 0 };
      let changed = false;
      while ((oldLeft > 0 || newLeft > 0) && i + 1 < lines.length) {
        const b = lines[++i]!;
        h.text += b;
        const body = b.slice(1);
        if (b[0] === ' ' || b === '\n') {
          h.old.push(b === '\n' ? '\n' : body);
          h.new.push(b === '\n' ? '\n' : body);
          oldLeft--;
          newLeft--;
          if (changed) h.post++;
          else h.pre++;
        } else if (b[0] === '-' || b[0] === '+') {
          if (b[0] === '-') (h.old.push(body), oldLeft--);
          else (h.new.push(body), newLeft--);
          changed = true;
          h.post = 0;
        } else break;
        if (lines[i + 1]?.startsWith('\\')) {
          h.text += lines[++i]!;
          const strip = (arr: string[]) => arr.length > 0 && (arr[arr.length - 1] = arr[arr.length - 1]!.replace(/\n$/, ''));
          if (b[0] !== '+') strip(h.old);
          if (b[0] !== '-') strip(h.new);
        }
      }
      current.hunks.push(h);
      continue;
    }
    const n = /^(\d+)(?:,(\d+))?([acd])(\d+)(?:,(\d+))?\n?$/.exec(l);
    if (n) {
      current ??= fresh(i + 1);
      const from = Number(n[1]);
      const h: Hunk = { at: n[3] === 'a' ? from + 1 : from, old: [], new: [], text: l, pre: 0, post: 0 };
      while (i + 1 < lines.length && /^(< |> |---|\\)/.test(lines[i + 1]!)) {
        const b = lines[++i]!;
        h.text += b;
        if (b.startsWith('< ')) h.old.push(b.slice(2));
        else if (b.startsWith('> ')) h.new.push(b.slice(2));
        else if (b.startsWith('\\')) {
          const arr = lines[i - 1]!.startsWith('<') ? h.old : h.new;
          arr[arr.length - 1] = arr[arr.length - 1]!.replace(/\n$/, '');
        }
      }
      current.hunks.push(h);
    }
  }
  return patches;
}

/** `name` without its first `n` components (GNU's -p; undefined when none is left); with no -p, the base name. */
function stripped(name: string, n: number | undefined): string | undefined {
  if (n === undefined) return name.split('/').pop()!;
  const parts = name.split('/');
  return n < parts.length ? parts.slice(n).join('/') : undefined;
}

/**
 * Where hunk pattern `pat` matches `lines` with `fuzz` (0-based start, or -1), as GNU patch's locate_hunk: tried at
 * `first` (the hunk's line moved by the offset so far), then one line further each way, never before `frozen` (the
 * end of the hunk applied before it). A side with less context than the other lets the hunk match only at that end
 * of the file until fuzz covers the difference. `skip` gives the outer lines left unchecked at each end.
 */
function locate(lines: string[], pat: string[], h: Hunk, first: number, frozen: number, fuzz: number): { at: number; skip: [number, number] } {
  const context = Math.max(h.pre, h.post);
  let pf = fuzz + h.pre - context;
  const sf = fuzz + h.post - context;
  if (pat.length === 0) return { at: first, skip: [0, 0] };
  const matches = (p: number, a: number, b: number) => {
    if (p < 0) return false;
    for (let k = a; k < pat.length - b; k++) if (p + k >= lines.length || lines[p + k] !== pat[k]) return false;
    return true;
  };
  const maxWhere = lines.length - (pat.length - sf);
  const minWhere = frozen - (h.pre - pf);
  const maxPos = maxWhere - first;
  let maxNeg = first - minWhere;
  if (first < maxNeg) maxNeg = first;
  if (pf < 0 && h.at <= 1) {
    if (sf < 0 && (pat.length !== lines.length || h.pre < frozen)) return { at: -1, skip: [0, 0] };
    return frozen <= h.pre && -first <= maxPos && matches(0, 0, Math.max(sf, 0)) ? { at: 0, skip: [0, Math.max(sf, 0)] } : { at: -1, skip: [0, 0] };
  }
  if (pf < 0) pf = 0;
  if (sf < 0) {
    const at = lines.length - pat.length;
    return first - at <= maxNeg && matches(at, pf, 0) ? { at, skip: [pf, 0] } : { at: -1, skip: [0, 0] };
  }
  const minOffset = maxPos < 0 ? first - maxWhere : maxNeg < 0 ? first - minWhere : 0;
  for (let d = minOffset; d <= Math.max(maxPos, maxNeg); d++) {
    if (d <= maxPos && matches(first + d, pf, sf)) return { at: first + d, skip: [pf, sf] };
    if (d <= maxNeg && matches(first - d, pf, sf)) return { at: first - d, skip: [pf, sf] };
  }
  return { at: -1, skip: [0, 0] };
}

async function patch(args: string[], ctx: InputCtx): Promise<ExecResult> {
  const o: Options = { strip: undefined, reverse: false, dryRun: false, silent: false, output: undefined, backup: false, dir: undefined, input: undefined, batch: false, fuzz: 2, noMismatchBackup: false };
  const walked = walkArgs(args, (a, next) => {
    if (a.startsWith('--')) {
      const [name, value] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      if (name === '--strip') o.strip = Number(value ?? next());
      else if (name === '--reverse') o.reverse = true;
      else if (name === '--dry-run') o.dryRun = true;
      else if (name === '--silent' || name === '--quiet') o.silent = true;
      else if (name === '--output') o.output = value ?? next();
      else if (name === '--backup') o.backup = true;
      else if (name === '--directory') o.dir = value ?? next();
      else if (name === '--input') o.input = value ?? next();
      else if (name === '--batch' || name === '--force') o.batch = true;
      else if (name === '--fuzz') o.fuzz = Number(value ?? next());
      else if (name === '--no-backup-if-mismatch') o.noMismatchBackup = true;
      else if (name === '--backup-if-mismatch') o.noMismatchBackup = false;
      else if (!['--forward', '--unified', '--normal'].includes(name)) return unsupported('patch', a);
      return undefined;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if ('piodF'.includes(c)) {
        const v = j + 1 < a.length ? a.slice(j + 1) : next();
        if (c === 'p') o.strip = Number(v);
        else if (c === 'F') o.fuzz = Number(v);
        else if (c === 'i') o.input = v;
        else if (c === 'o') o.output = v;
        else o.dir = v;
        return undefined;
      }
      if (c === 'R') o.reverse = true;
      else if (c === 's') o.silent = true;
      else if (c === 'b') o.backup = true;
      else if (c === 't' || c === 'f') o.batch = true;
      else if (!'NEun'.includes(c)) return unsupported('patch', `-${c}`);
    }
    return undefined;
  });
  if ('failed' in walked) return walked.failed;
  const [target, patchFile] = walked.operands;
  const fs = ctx.fs;
  const cwd = o.dir ? fs.resolvePath(ctx.cwd, o.dir) : ctx.cwd;
  const source = o.input ?? patchFile;
  let text: string;
  try {
    text = source === undefined || source === '-' ? latin1FromBytes(ctx.stdin) : Buffer.from(await fs.readFileBuffer(fs.resolvePath(ctx.cwd, source))).toString('latin1');
  } catch (err) {
    return { stdout: '', stderr: `patch: **** Can't open patch file ${source} : ${errnoText(err)}\n`, exitCode: 2 };
  }
  const patches = parsePatch(text);
  // GNU reads an empty patch as no patch at all; only text that holds no diff is garbage.
  if (text === '') return { stdout: '', stderr: '', exitCode: 0 };
  if (patches.length === 0) return { stdout: '', stderr: 'patch: **** Only garbage was found in the patch input.\n', exitCode: 2 };
  let out = '';
  let status = 0;
  for (const p of patches) {
    const names = [p.oldName, p.newName].filter((n) => n !== undefined && n !== '/dev/null').map((n) => stripped(n!, o.strip)).filter((n) => n !== undefined);
    let name = target;
    if (name === undefined) {
      for (const n of names) if (await exists(fs, fs.resolvePath(cwd, n))) { name = n; break; }
      if (name === undefined && p.oldName === '/dev/null') name = names[0];
    }
    if (name === undefined) {
      out += `can't find file to patch at input line ${p.line}\nPerhaps you ${o.strip === undefined ? 'should have used the -p or --strip option' : 'used the wrong -p or --strip option'}?\nThe text leading up to this was:\n--------------------------\n${p.headers.map((h) => `|${h}`).join('')}--------------------------\n${o.batch ? 'No file to patch.  Skipping patch.' : 'File to patch: \nSkip this patch? [y] \nSkipping patch.'}\n${p.hunks.length} out of ${p.hunks.length} hunk${p.hunks.length === 1 ? '' : 's'} ignored\n`;
      status = 1;
      continue;
    }
    const path = fs.resolvePath(cwd, name);
    let original = '';
    try {
      original = Buffer.from(await fs.readFileBuffer(path)).toString('latin1');
    } catch {
      // A file the patch creates starts empty.
    }
    const lines = original.match(/[^\n]*\n|[^\n]+$/g) ?? [];
    const outName = o.output ?? name;
    if (!o.silent) out += `${o.dryRun ? 'checking' : 'patching'} file ${outName}${o.output ? ` (read from ${name})` : ''}\n`;
    // GNU's in_offset (where hunks matched against where they say, so far) and out_offset (lines added so far).
    let inOffset = 0;
    let outOffset = 0;
    let frozen = 0;
    let mismatch = false;
    const failed: Hunk[] = [];
    p.hunks.forEach((h, k) => {
      const [from, to] = o.reverse ? [h.new, h.old] : [h.old, h.new];
      const first = h.at - 1 + inOffset + outOffset;
      let fuzz = 0;
      let found = locate(lines, from, h, first, frozen, fuzz);
      while (found.at < 0 && fuzz < Math.min(o.fuzz, Math.max(h.pre, h.post))) found = locate(lines, from, h, first, frozen, ++fuzz);
      if (found.at < 0) {
        failed.push(h);
        if (!o.silent) out += `Hunk #${k + 1} FAILED at ${h.at + outOffset}.\n`;
        return;
      }
      inOffset += found.at - first;
      if (fuzz > 0 || inOffset !== 0) {
        mismatch = true;
        if (!o.silent) {
          const offset = inOffset === 0 ? '' : ` (offset ${inOffset} line${Math.abs(inOffset) === 1 ? '' : 's'})`;
          out += `Hunk #${k + 1} succeeded at ${found.at + 1}${fuzz > 0 ? ` with fuzz ${fuzz}` : ''}${offset}.\n`;
        }
      }
      // The outer context lines fuzz skipped keep the file's text, as GNU copies context from the input.
      const [a, b] = found.skip;
      lines.splice(found.at + a, from.length - a - b, ...to.slice(a, to.length - b));
      outOffset += to.length - from.length;
      frozen = found.at + to.length;
    });
    if (failed.length > 0) {
      status = 1;
      out += `${failed.length} out of ${p.hunks.length} hunk${p.hunks.length === 1 ? '' : 's'} FAILED${o.dryRun ? '' : ` -- saving rejects to file ${outName}.rej`}\n`;
    }
    if (o.dryRun) continue;
    const dest = fs.resolvePath(cwd, outName);
    if (o.backup || (!o.output && !o.noMismatchBackup && (mismatch || failed.length > 0))) await fs.writeFile(`${path}.orig`, Buffer.from(original, 'latin1'));
    if (failed.length > 0) await fs.writeFile(`${dest}.rej`, Buffer.from(p.headers.join('') + failed.map((h) => h.text).join(''), 'latin1'));
    const result = lines.join('');
    if (result === '' && (o.reverse ? p.oldName : p.newName) === '/dev/null') await fs.rm(dest).catch(() => undefined);
    else await fs.writeFile(dest, Buffer.from(result, 'latin1'));
  }
  return { stdout: out, stderr: '', exitCode: status };
}

const exists = async (fs: IFileSystem, path: string) => (await fs.stat(path).catch(() => null)) !== null;

/** `patch` for just-bash's `customCommands`. */
export function patchCommands(): CustomCommand[] {
  return [defineCommand('patch', (args, ctx) => patch(args, ctx))];
}
