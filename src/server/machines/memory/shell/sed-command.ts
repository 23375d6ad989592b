/**
 * `sed` as GNU sed runs it, over just-bash's (the editing is just-bash's): the long options (`--expression=…`,
 * `--file=…`, `--quiet`, `--separate`, `--in-place=SUF`), scripts from `-f` files (an empty one is an empty
 * script), the one-line `a\text` forms and unterminated `s` errors (sed-script.ts), `-s` (each file on its own),
 * an input file that cannot be read (`sed: can't read F: …`, the others still edited, exit 2), and `-i`: a
 * backup with a suffix (`-i.bak`), a symlink replaced by the edited regular file (or its target edited with
 * `--follow-symlinks`), a `/dev/stdin` operand (stdin), a closed stdin (`sed: read error on stdin`, exit 4, after the
 * other files). A suffix with `*` (GNU's basename template) fails loudly. `-z` and the `e` command run in
 * the interpreter (patches/just-bash/sed-execute-and-null-data.mjs); `-z` with a command that adds its own
 * newline-ended text (a, i, c, r, R, w, W, l) fails loudly.
 * @see https://www.gnu.org/software/sed/manual/sed.html#Command_002dLine-Options
 */
import { bytesOutput, defineCommand, latin1FromBytes, unsafeBytesFromLatin1, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';
import { errorsFirst } from './output-order.ts';
import { ownerOf } from './devices.ts';
import { detachName } from './replace-file.ts';
import { strerror } from './errno-text.ts';
import { SANDBOX_HINT } from './world.ts';
import { missingLabel, normalizeSedScript, sedProgram } from './sed-script.ts';
import { isStdinOperand } from './text-input.ts';
import { CLOSED_STDIN_READ, stdinIsClosed } from './closed-stdin.ts';
import { firstRejection } from './gnu-options.ts';
import { CARRIED, encodeCarried } from './utf8-carry.ts';

type Run = (a: string[]) => Promise<ExecResult>;

/** Whether the user the command runs as may read (4) or write (2) `abs` (the shell engine's filesystem answers). */
async function mayAccess(fs: IFileSystem, abs: string, want: 4 | 2): Promise<boolean> {
  const own = fs as IFileSystem & { access?: (path: string, want: 4 | 2 | 1) => Promise<boolean> };
  return own.access ? own.access(abs, want) : true;
}

/** Six letters and digits, as mkstemp fills GNU sed's `sedXXXXXX`. */
const tempSuffix = (): string => Array.from({ length: 6 }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(Math.random() * 62)]).join('');

/** A `w /dev/stdout` (the command, or the `s` flag) at the end of a script line. */
const WRITE_STDOUT = /w[ \t]*\/dev\/stdout[ \t]*(?:\n|$)/;
const WRITE_STDOUT_ALL = new RegExp(WRITE_STDOUT.source, 'g');
/** The text of an `a\`/`i\` that has none, which the patched sed prints as nothing. */
const SED_EMPTY_TEXT = '\uE000';

interface Plan {
  /** Options passed on as they are (`-n`, `-E`, `-r`, `-u`, …). */
  flags: string[];
  /** `-l N`: the width of an `l` command that gives none (sed-script.ts puts it in). */
  listWidth?: number;
  scripts: string[];
  /** The `-f` file each script came from (undefined for `-e` and the bare script): GNU locates errors by it. */
  sources: Array<{ file: string; newline: boolean } | undefined>;
  files: string[];
  inPlace: boolean;
  suffix: string;
  separate: boolean;
  followLinks: boolean;
  /** Whether a script came from stdin (`-f -`). */
  scriptFromStdin?: boolean;
}

/** `-l N`'s width as GNU sed reads it (atoi: leading digits, else 0, which never wraps). */
const lineLength = (v: string) => Number.parseInt(v, 10) || 0;

const LONG: Record<string, string> = { '--null-data': '-z', '--zero-terminated': '-z', '--quiet': '-n', '--silent': '-n', '--regexp-extended': '-E', '--debug': '--debug', '--posix': '--posix', '--sandbox': '--sandbox' };

async function plan(args: string[], fs: IFileSystem, cwd: string, stdin: () => string): Promise<Plan | ExecResult> {
  const p: Plan = { flags: [], scripts: [], sources: [], files: [], inPlace: false, suffix: '', separate: false, followLinks: false };
  const fromFile = async (f: string): Promise<ExecResult | undefined> => {
    try {
      // `-f -` and `-f /dev/stdin` read the script from stdin, which leaves none for the data.
      const fromStdin = isStdinOperand(f);
      p.scriptFromStdin ||= fromStdin;
      const text = new TextDecoder().decode(fromStdin ? Buffer.from(stdin(), 'latin1') : await fs.readFileBuffer(fs.resolvePath(cwd, f)));
      p.scripts.push(text.endsWith('\n') ? text.slice(0, -1) : text);
      p.sources[p.scripts.length - 1] = { file: f, newline: text.endsWith('\n') };
      return undefined;
    } catch {
      // GNU panics (exit 4) on a script file it cannot open.
      return { stdout: '', stderr: `sed: couldn't open file ${f}: No such file or directory\n`, exitCode: 4 };
    }
  };
  const bare: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      bare.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq);
      const value = () => (eq < 0 ? (args[++i] ?? '') : a.slice(eq + 1));
      if (name === '--expression') p.scripts.push(value());
      else if (name === '--file') {
        const r = await fromFile(value());
        if (r) return r;
      } else if (name === '--in-place') (p.inPlace = true), (p.suffix = eq < 0 ? '' : a.slice(eq + 1));
      else if (name === '--separate') p.separate = true;
      else if (name === '--follow-symlinks') p.followLinks = true;
      else if (name === '--line-length') p.listWidth = lineLength(value());
      // --posix only turns GNU's extensions off; scripts that pass it use none, so it changes nothing they see.
      else if (name === '--posix') continue;
      else if (name === '--unbuffered') continue;
      else if (LONG[name] && eq < 0) p.flags.push(LONG[name]!);
      else p.flags.push(a);
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === 'e' || c === 'f' || c === 'l') {
          const v = j + 1 < a.length ? a.slice(j + 1) : (args[++i] ?? '');
          if (c === 'e') p.scripts.push(v);
          else if (c === 'l') p.listWidth = lineLength(v);
          else {
            const r = await fromFile(v);
            if (r) return r;
          }
          break;
        }
        if (c === 'i') {
          p.inPlace = true;
          p.suffix = a.slice(j + 1);
          break;
        }
        if (c === 's') p.separate = true;
        // -u (unbuffered) changes when output is written, never what: nothing to do here.
        else if (c !== 'u') p.flags.push(`-${c}`);
      }
      continue;
    }
    bare.push(a);
  }
  if (p.scripts.length === 0) {
    if (bare.length === 0) return { stdout: '', stderr: 'Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n', exitCode: 1 };
    p.scripts.push(bare.shift()!);
  }
  p.files = bare;
  return p;
}

async function sed(args: string[], fs: IFileSystem, cwd: string, run: Run, stdin: () => string, stdinClosed: boolean): Promise<ExecResult> {
  // GNU sed's getopt rejects an option it lacks before it looks for a script (gnu-options.ts).
  const typo = firstRejection('sed', args);
  if (typo) return typo;
  const p = await plan(args, fs, cwd, stdin);
  if ('exitCode' in p) return p;
  if (p.scriptFromStdin && p.files.length === 0) p.files = ['/dev/null'];
  // A path naming fd 0 is the stdin operand; GNU sed reads it, and a closed one fails after the other files.
  if (!p.inPlace) p.files = p.files.map((f) => (isStdinOperand(f, false) ? '-' : f));
  const scripts: string[] = [];
  let letters = '';
  let continued = false;
  const program = sedProgram();
  const extended = p.flags.includes('-E') || p.flags.includes('-r');
  let expression = 0;
  for (const [k, s] of p.scripts.entries()) {
    const source = p.sources[k];
    if (source === undefined) expression++;
    const n = normalizeSedScript(s, expression, { textFirst: continued, listWidth: p.listWidth, extended, file: source?.file, fileNewline: source?.newline, program });
    if ('error' in n) return { stdout: '', stderr: n.error, exitCode: 1 };
    // The last script's `a\` with no text appends empty text: the marker the patched sed writes as nothing
    // (patches/just-bash/sed-empty-text.mjs).
    scripts.push(n.emptyTextAtEnd && k === p.scripts.length - 1 ? `${n.script}\n${SED_EMPTY_TEXT}` : n.script);
    letters += n.letters;
    continued = n.emptyTextAtEnd === true;
  }
  const lost = program.depth === 0 ? missingLabel(program) : undefined;
  if (lost) return { stdout: '', stderr: lost, exitCode: 4 };
  // GNU edits in place only named files (exit 4, a panic, for none).
  if (p.inPlace && p.files.length === 0) return { stdout: '', stderr: 'sed: no input files\n', exitCode: 4 };
  const closedRead = stdinClosed && !p.inPlace && (p.files.length === 0 || p.files.includes('-'));
  if (closedRead) {
    // sed stops at the failed read: only the files before the first `-` are edited.
    p.files = p.files.includes('-') ? p.files.slice(0, p.files.indexOf('-')) : [];
    if (p.files.length === 0) return { stdout: '', ...CLOSED_STDIN_READ.sed };
  }
  if (p.flags.includes('-z')) {
    // With -z the interpreter runs on the data with its NUL and newline bytes traded (patches/just-bash/
    // sed-execute-and-null-data.mjs): the script's `\n` (a newline in the data) becomes the NUL that stands for it.
    // Text that commands add after a newline of their own (a, i, c, r, R, w, W, l) would come out NUL-ended.
    if (/[aicrRwWl]/.test(letters)) return { stdout: '', stderr: `sed: the a, i, c, r, R, w, W and l commands with -z are not available in the shell engine; ${SANDBOX_HINT}\n`, exitCode: 2 };
    for (let k = 0; k < scripts.length; k++) scripts[k] = scripts[k]!.replace(/\\(.)/gs, (all, c: string) => (c === 'n' ? '\0' : all));
  }
  if (p.suffix.includes('*') || p.suffix.includes('/')) {
    return { stdout: '', stderr: `sed: the backup name '${p.suffix}' (a template or a directory) is not available in the shell engine; run spritzer with --exec sandbox\n`, exitCode: 2 };
  }
  let stderr = '';
  let panic = false;
  const files: string[] = [];
  for (const f of p.files) {
    if (f === '-') {
      files.push(f);
      continue;
    }
    const abs = fs.resolvePath(cwd, f);
    let failure: unknown;
    const st = await fs.stat(abs).catch((err: unknown) => ((failure = err), null));
    // A device may stat and still not open (`/dev/tty` without a terminal: ENXIO).
    if (st && ownerOf(st).device) await fs.readFileBuffer(abs).catch((err: unknown) => (failure = err));
    if (!st || failure) stderr += `sed: can't read ${f}: ${strerror(failure)}\n`;
    else if (!st.isDirectory && !(await mayAccess(fs, abs, 4))) stderr += `sed: can't read ${f}: Permission denied\n`;
    else if (p.inPlace && !st.isDirectory && !(await mayAccess(fs, abs.slice(0, abs.lastIndexOf('/')) || '/', 2))) {
      // GNU writes the edit to a new file beside the operand (`sedXXXXXX`, a random name): a directory the user may
      // not write stops sed there, status 4, the files before it edited.
      const dir = f.includes('/') ? `${f.slice(0, f.lastIndexOf('/'))}/` : '';
      stderr += `sed: couldn't open temporary file ${dir}sed${tempSuffix()}: Permission denied\n`;
      panic = true;
      break;
    } else if (st.isDirectory && p.inPlace) {
      // GNU sed gives up at a directory to edit in place: the files before it are edited, none after; status 4.
      stderr += `sed: couldn't edit ${f}: not a regular file\n`;
      panic = true;
      break;
    } else if (st.isDirectory) stderr += `sed: couldn't read ${f}: Is a directory\n`;
    else files.push(p.inPlace && p.followLinks ? await fs.realpath(abs) : f);
  }
  const failed = stderr !== '';
  if (failed && files.length === 0) return { stdout: '', stderr, exitCode: panic ? 4 : 2 };
  // With -i, `w /dev/stdout` is still sed's real stdout (GNU opens that name as it), not the file being edited:
  // those writes go to a scratch file shown as stdout afterwards.
  const shown = p.inPlace && scripts.some((s) => WRITE_STDOUT.test(s)) ? `/tmp/.sed-stdout-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}` : undefined;
  const base = [...p.flags, ...(p.inPlace ? ['-i'] : []), ...scripts.flatMap((s) => ['-e', shown ? s.replace(WRITE_STDOUT_ALL, (m) => m.replace('/dev/stdout', shown)) : s])];
  const originals = new Map<string, Uint8Array>();
  // Operands whose old file is already the backup (a symlink or a file with other names).
  const renamed = new Set<string>();
  const readOnly = new Map<string, number>();
  if (p.inPlace) {
    for (const f of files) {
      const abs = fs.resolvePath(cwd, f);
      const bytes = await fs.readFileBuffer(abs);
      originals.set(abs, bytes);
      // GNU writes the edited text to a new file renamed over the operand: a symlink operand becomes a regular file
      // (with its target's mode), other hard links keep the old text, and the operand's own mode does not matter
      // (a 0444 file is edited, and keeps 0444).
      // With a backup suffix GNU renames the original to the backup name: the backup is the old file itself.
      const kept = await detachName(fs, abs, p.suffix ? `${abs}${p.suffix}` : undefined);
      if (kept !== undefined && p.suffix) renamed.add(abs);
      if (kept !== undefined) {
        await fs.writeFile(abs, bytes);
        await fs.chmod(abs, kept);
      }
      const mode = (await fs.stat(abs)).mode & 0o7777;
      if (!(mode & 0o200)) {
        readOnly.set(abs, mode);
        await fs.chmod(abs, mode | 0o200);
      }
    }
  }
  const groups = p.separate && !p.inPlace && files.length > 1 ? files.map((f) => [f]) : [files];
  const results: ExecResult[] = [];
  for (const g of groups) {
    const r = await run([...base, ...g]);
    results.push(r);
    if (r.exitCode !== 0) break;
  }
  for (const [abs, mode] of readOnly) await fs.chmod(abs, mode);
  const last = results[results.length - 1]!;
  // GNU writes each backup as it starts on the file: a script that does not parse leaves none.
  if (p.suffix && (last.exitCode === 0 || !/unknown command|invalid command|unterminated|unknown option/.test(last.stderr))) {
    for (const [abs, bytes] of originals) if (!renamed.has(abs)) await fs.writeFile(`${abs}${p.suffix}`, bytes);
  } else {
    // No backup after all: the old file goes back under its name.
    for (const abs of renamed) await fs.mv(`${abs}${p.suffix}`, abs);
  }
  let out = results.length === 1 ? last : { ...last, stdout: results.map((r) => r.stdout).join('') };
  if (shown) {
    const written = await fs.readFileBuffer(shown).catch(() => new Uint8Array());
    await fs.rm(shown, { force: true }).catch(() => undefined);
    out = { ...out, ...bytesOutput(unsafeBytesFromLatin1(Buffer.from(written).toString('latin1'))) };
  }
  // Bytes that are not UTF-8 went through the editing as private-use characters (patches/just-bash/
  // sed-utf8-invalid-bytes.mjs): they come out as the bytes they were.
  out = { ...out, ...rawBytes(out.stdout) };
  // GNU sed writes its messages unbuffered and its output through stdio: the messages come first into a pipe or file.
  const status = failed && last.exitCode === 0 ? (panic ? 4 : 2) : last.exitCode;
  if (closedRead && (status === 0 || status === 2)) return errorsFirst({ ...out, stderr: stderr + results.map((r) => r.stderr).join('') + CLOSED_STDIN_READ.sed.stderr, exitCode: CLOSED_STDIN_READ.sed.exitCode });
  return errorsFirst({ ...out, stderr: stderr + results.map((r) => r.stderr).join(''), exitCode: status });
}

/** sed's text output with each carried byte put back, as bytes (the text as it is when it carries none). */
function rawBytes(stdout: string): Pick<ExecResult, 'stdout'> {
  return CARRIED.test(stdout) ? bytesOutput(unsafeBytesFromLatin1(encodeCarried(stdout))) : { stdout };
}

/** `sed` for just-bash's `customCommands` (the editing is just-bash's own). */
export function sedCommands(): CustomCommand[] {
  return [defineCommand('sed', (args, ctx) => sed(args, ctx.fs, ctx.cwd, (a) => ctx.origCommand!(a), () => latin1FromBytes(ctx.stdin), stdinIsClosed(ctx)))];
}
