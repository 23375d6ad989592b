/**
 * `patch` as GNU patch applies unified and normal diffs (from stdin, `-i FILE` or the second operand): the file from
 * the operand or the `---`/`+++` names (`-p N` stripped; the old name when it exists), hunks found where they say or at
 * the nearest offset (`Hunk #2 succeeded at 10 (offset 3 lines).`), failures saved to `FILE.rej` with the original kept
 * as `FILE.orig` (exit 1), `-R`, `--dry-run` (`checking file`), `-s`, `-o`, `-b` (named by `-z SUFFIX`, `-V
 * numbered|existing`), `-d`, new files from `/dev/null`. A hunk whose context does not match is retried with fuzz (`-F
 * N`, default 2): its outer context lines ignored one more at a time (`Hunk #1 succeeded at 4 with fuzz 1.`), the
 * file's own lines kept there; a hunk with less context on one side than the other must sit at that end of the file to
 * match without fuzz. A file patched with fuzz or at an offset is backed up to `FILE.orig` too (GNU's default
 * `--backup-if-mismatch`). A first hunk that fits only the other way round is a patch already applied (or reversed):
 * GNU asks whether to assume -R, and a script has no answer to give, so the file is skipped (`1 out of 1 hunk ignored`,
 * rejects saved); `-N` skips it without asking, `-t` applies it reversed, `-f` does not check. Sides diff -N dates at
 * the epoch are absent.
 * @see https://www.gnu.org/software/diffutils/manual/html_node/Invoking-patch.html
 */
import { defineCommand, latin1FromBytes, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { locate, parsePatch, reversedText, type Hunk } from './patch-hunks.ts';
import { backupSuffix } from './copy-options.ts';
import { errnoText, walkArgs, type InputCtx } from './text-input.ts';
import { replaceFile } from './replace-file.ts';

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
  /** `-f`: no check for a reversed patch (and `-t` assumes one is). */
  force: boolean;
  /** `-N`: a patch that looks reversed or already applied is skipped. */
  forward: boolean;
  /** `-F N`: the most outer context lines a hunk may ignore. */
  fuzz: number;
  /** `--no-backup-if-mismatch`: no `.orig` for a file patched with fuzz or at an offset. */
  noMismatchBackup: boolean;
  /** `-z SUFFIX` and `-V STYLE`: how a backup is named (`FILE.orig`, `FILE.~N~`). */
  backupName: { suffix: string; control: 'simple' | 'numbered' | 'existing' };
}

/** `name` without its first `n` components (GNU's -p; undefined when none is left); with no -p, the base name. */
function stripped(name: string, n: number | undefined): string | undefined {
  if (n === undefined) return name.split('/').pop()!;
  const parts = name.split('/');
  return n < parts.length ? parts.slice(n).join('/') : undefined;
}

async function patch(args: string[], ctx: InputCtx): Promise<ExecResult> {
  const o: Options = { strip: undefined, reverse: false, dryRun: false, silent: false, output: undefined, backup: false, dir: undefined, input: undefined, batch: false, force: false, forward: false, fuzz: 2, noMismatchBackup: false, backupName: { suffix: '.orig', control: 'simple' } };
  const control = (v: string) => {
    const style = ({ simple: 'simple', never: 'simple', numbered: 'numbered', t: 'numbered', existing: 'existing', nil: 'existing' } as const)[v];
    if (style) o.backupName.control = style;
    return style;
  };
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
      else if (name === '--batch' || name === '--force') (o.batch = true), (o.force ||= name === '--force');
      else if (name === '--forward') o.forward = true;
      else if (name === '--fuzz') o.fuzz = Number(value ?? next());
      else if (name === '--suffix') o.backupName.suffix = value ?? next() ?? '';
      else if (name === '--version-control') {
        const v = value ?? next() ?? '';
        if (!control(v)) return unsupported('patch', `--version-control=${v}`);
      }
      else if (name === '--no-backup-if-mismatch') o.noMismatchBackup = true;
      else if (name === '--backup-if-mismatch') o.noMismatchBackup = false;
      else if (!['--unified', '--normal'].includes(name)) return unsupported('patch', a);
      return undefined;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if ('piodFzV'.includes(c)) {
        const v = j + 1 < a.length ? a.slice(j + 1) : next();
        if (c === 'z') o.backupName.suffix = v ?? '';
        else if (c === 'V') {
          if (!control(v ?? '')) return unsupported('patch', `-V ${v}`);
        } else if (c === 'p') o.strip = Number(v);
        else if (c === 'F') o.fuzz = Number(v);
        else if (c === 'i') o.input = v;
        else if (c === 'o') o.output = v;
        else o.dir = v;
        return undefined;
      }
      if (c === 'R') o.reverse = true;
      else if (c === 's') o.silent = true;
      else if (c === 'b') o.backup = true;
      else if (c === 't' || c === 'f') (o.batch = true), (o.force ||= c === 'f');
      else if (c === 'N') o.forward = true;
      else if (!'Eun'.includes(c)) return unsupported('patch', `-${c}`);
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
      if (name === undefined && (p.oldNone || (o.reverse && p.newNone))) name = names[0];
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
    let reverse = o.reverse;
    let skip = false;
    const failed: Hunk[] = [];
    p.hunks.forEach((h, k) => {
      if (skip) return void failed.push(h);
      const side = (rev: boolean) => (rev ? { from: h.new, to: h.old, at: h.newAt } : { from: h.old, to: h.new, at: h.at });
      let { from, to, at } = side(reverse);
      let first = at - 1 + inOffset + outOffset;
      let found = { at: -1, skip: [0, 0] as [number, number] };
      let fuzz = 0;
      let swapTried = o.force;
      for (;;) {
        found = locate(lines, from, h, first, frozen, fuzz);
        // GNU tries the first hunk of a file the other way round before it tries more fuzz: a patch already applied
        // (or made with the files swapped) matches so.
        if (found.at < 0 && k === 0 && !swapTried) {
          const other = side(!reverse);
          const otherFirst = other.at - 1 + inOffset + outOffset;
          const swapped = locate(lines, other.from, h, otherFirst, frozen, fuzz);
          if (swapped.at >= 0) {
            swapTried = true;
            out += reverse ? 'Unreversed patch detected!' : 'Reversed (or previously applied) patch detected!';
            if (o.forward) {
              out += '  Skipping patch.\n';
              skip = true;
            } else if (o.batch) {
              out += reverse ? '  Ignoring -R.\n' : '  Assuming -R.\n';
              reverse = !reverse;
              ({ from, to, at } = other);
              (first = otherFirst), (found = swapped);
            } else {
              // The answers come from the terminal; a script has none, so GNU takes each question's default, no.
              out += `  ${reverse ? 'Ignore' : 'Assume'} -R? [n] \nApply anyway? [n] \n${o.silent ? '' : 'Skipping patch.\n'}`;
              skip = true;
            }
          }
        }
        if (found.at >= 0 || skip || fuzz >= Math.min(o.fuzz, Math.max(h.pre, h.post))) break;
        fuzz++;
      }
      if (skip) return void failed.push(h);
      if (found.at < 0) {
        failed.push(h);
        if (!o.silent) out += `Hunk #${k + 1} FAILED at ${at + outOffset}.\n`;
        return;
      }
      inOffset += found.at - first;
      if (fuzz > 0 || inOffset !== 0 || reverse !== o.reverse) mismatch = true;
      if ((fuzz > 0 || inOffset !== 0) && !o.silent) {
        const offset = inOffset === 0 ? '' : ` (offset ${inOffset} line${Math.abs(inOffset) === 1 ? '' : 's'})`;
        out += `Hunk #${k + 1} succeeded at ${found.at + 1}${fuzz > 0 ? ` with fuzz ${fuzz}` : ''}${offset}.\n`;
      }
      // The outer context lines fuzz skipped keep the file's text, as GNU copies context from the input.
      const [a, b] = found.skip;
      lines.splice(found.at + a, from.length - a - b, ...to.slice(a, to.length - b));
      outOffset += to.length - from.length;
      frozen = found.at + to.length;
    });
    if (failed.length > 0) {
      status = 1;
      out += `${failed.length} out of ${p.hunks.length} hunk${p.hunks.length === 1 ? '' : 's'} ${skip ? 'ignored' : 'FAILED'}${o.dryRun ? '' : ` -- saving rejects to file ${outName}.rej`}\n`;
    }
    if (o.dryRun) continue;
    const dest = fs.resolvePath(cwd, outName);
    if (failed.length > 0) await fs.writeFile(`${dest}.rej`, Buffer.from(p.headers.join('') + failed.map((h) => (reverse ? reversedText(h) : h.text)).join(''), 'latin1'));
    // A skipped patch leaves the file as it was, without a backup.
    if (skip) continue;
    if (o.backup || (!o.output && !o.noMismatchBackup && (mismatch || failed.length > 0))) await fs.writeFile(`${path}${await backupSuffix(fs, path, o.backupName)}`, Buffer.from(original, 'latin1'));
    const result = lines.join('');
    const created = o.output !== undefined && !(await exists(fs, dest));
    if (result === '' && (reverse ? p.oldNone : p.newNone)) await fs.rm(dest).catch(() => undefined);
    // GNU writes the result to a new file renamed over the old one: other hard links keep the old text.
    else await replaceFile(fs, dest, Buffer.from(result, 'latin1'));
    // GNU writes -o's new file through a private temporary file, whose mode it keeps.
    if (created) await fs.chmod(dest, 0o600);
  }
  return { stdout: out, stderr: '', exitCode: status };
}

const exists = async (fs: IFileSystem, path: string) => (await fs.stat(path).catch(() => null)) !== null;

/** `patch` for just-bash's `customCommands`. */
export function patchCommands(): CustomCommand[] {
  return [defineCommand('patch', (args, ctx) => patch(args, ctx))];
}
