/**
 * `patch` as GNU patch applies unified and normal diffs (from stdin, `-i FILE` or the second operand): the file from
 * the operand or the `---`/`+++` names (`-p N` stripped; the old name when it exists), hunks found where they say
 * or at the nearest offset (`Hunk #2 succeeded at 10 (offset 3 lines).`), failures saved to `FILE.rej` with the
 * original kept as `FILE.orig` (exit 1), `-R`, `--dry-run` (`checking file`), `-s`, `-o`, `-b`, `-d`, new files
 * from `/dev/null`. No fuzz: a hunk whose context does not match anywhere fails.
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
      const h: Hunk = { at: Number(u[1]) + (oldLeft === 0 ? 1 : 0), old: [], new: [], text: l };
      while ((oldLeft > 0 || newLeft > 0) && i + 1 < lines.length) {
        const b = lines[++i]!;
        h.text += b;
        const body = b.slice(1);
        if (b[0] === ' ' || b === '\n') {
          h.old.push(b === '\n' ? '\n' : body);
          h.new.push(b === '\n' ? '\n' : body);
          oldLeft--;
          newLeft--;
        } else if (b[0] === '-') (h.old.push(body), oldLeft--);
        else if (b[0] === '+') (h.new.push(body), newLeft--);
        else break;
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
      const h: Hunk = { at: n[3] === 'a' ? from + 1 : from, old: [], new: [], text: l };
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

/** Where `old` occurs in `lines` nearest to `at` (0-based), or -1. */
function locate(lines: string[], old: string[], at: number): number {
  const fits = (p: number) => p >= 0 && p + old.length <= lines.length && old.every((l, k) => lines[p + k] === l);
  for (let d = 0; d <= lines.length; d++) {
    if (fits(at - d)) return at - d;
    if (fits(at + d)) return at + d;
  }
  return -1;
}

async function patch(args: string[], ctx: InputCtx): Promise<ExecResult> {
  const o: Options = { strip: undefined, reverse: false, dryRun: false, silent: false, output: undefined, backup: false, dir: undefined, input: undefined, batch: false };
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
      else if (!['--forward', '--unified', '--normal', '--no-backup-if-mismatch'].includes(name)) return unsupported('patch', a);
      return undefined;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if ('piod'.includes(c)) {
        const v = j + 1 < a.length ? a.slice(j + 1) : next();
        if (c === 'p') o.strip = Number(v);
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
    let shift = 0;
    const failed: Hunk[] = [];
    p.hunks.forEach((h, k) => {
      const [from, to] = o.reverse ? [h.new, h.old] : [h.old, h.new];
      const want = h.at - 1 + shift;
      const found = locate(lines, from, want);
      if (found < 0) {
        failed.push(h);
        if (!o.silent) out += `Hunk #${k + 1} FAILED at ${h.at}.\n`;
        return;
      }
      if (found !== want && !o.silent) out += `Hunk #${k + 1} succeeded at ${found + 1} (offset ${found - want} line${Math.abs(found - want) === 1 ? '' : 's'}).\n`;
      lines.splice(found, from.length, ...to);
      shift += found - want + to.length - from.length;
    });
    if (failed.length > 0) {
      status = 1;
      out += `${failed.length} out of ${p.hunks.length} hunk${p.hunks.length === 1 ? '' : 's'} FAILED${o.dryRun ? '' : ` -- saving rejects to file ${outName}.rej`}\n`;
    }
    if (o.dryRun) continue;
    const dest = fs.resolvePath(cwd, outName);
    if (o.backup || failed.length > 0) await fs.writeFile(`${path}.orig`, Buffer.from(original, 'latin1'));
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
