/**
 * `stat -c/--format/--printf` as GNU prints it: the formats agent tools use (`stat -c %Y FILE`) are formatted here
 * from the sprite's file facts; a directive not listed below fails loudly (exit 2, naming `--exec sandbox`). Other
 * `stat` forms are just-bash's; `find` is find-command.ts's.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/stat-invocation.html
 */
import { defineCommand, type CustomCommand, type ExecResult, type FsStat, type IFileSystem } from 'just-bash';
import { ownerOf } from './devices.ts';

const HINT = 'run spritzer with --exec sandbox';
const NAMES: Record<number, string> = { 0: 'root', 1000: 'sprite', 65534: 'nogroup' };
const refuse = (cmd: string, what: string): ExecResult => ({ stdout: '', stderr: `${cmd}: ${what} is not available in the shell engine; ${HINT}\n`, exitCode: 2 });

function typeLetter(st: FsStat): string {
  if (ownerOf(st).device) return 'c';
  return st.isSymbolicLink ? 'l' : st.isDirectory ? 'd' : 'f';
}
function typeName(st: FsStat): string {
  if (ownerOf(st).device) return 'character special file';
  if (st.isSymbolicLink) return 'symbolic link';
  if (st.isDirectory) return 'directory';
  return st.size === 0 ? 'regular empty file' : 'regular file';
}
function symbolic(st: FsStat): string {
  const bit = (m: number, c: string) => ((st.mode & m) !== 0 ? c : '-');
  const t = typeLetter(st) === 'f' ? '-' : typeLetter(st);
  return t + [0o400, 0o200, 0o100, 0o40, 0o20, 0o10, 0o4, 0o2, 0o1].map((m, i) => bit(m, 'rwx'[i % 3]!)).join('');
}
const seconds = (d: Date) => String(Math.floor(d.getTime() / 1000));

/** Expands backslash escapes of a format (`\n`, `\t`, `\0`, `\\`); null for one it does not know. */
function escapes(fmt: string): string | null {
  let bad = false;
  const out = fmt.replace(/\\(.)/g, (_, c: string) => {
    const map: Record<string, string> = { n: '\n', t: '\t', '0': '\0', '\\': '\\', a: '\x07', r: '\r', '"': '"' };
    if (map[c] === undefined) bad = true;
    return map[c] ?? '';
  });
  return bad ? null : out;
}

/** Formats one file for `stat -c`; null names the directive it lacks (in `missing`). */
async function statLine(fmt: string, name: string, st: FsStat, fs: IFileSystem, path: string, missing: { d?: string }): Promise<string> {
  const o = ownerOf(st);
  const link = st.isSymbolicLink ? await fs.readlink(path).catch(() => '') : '';
  const values: Record<string, () => string> = {
    n: () => name,
    N: () => (st.isSymbolicLink ? `'${name}' -> '${link}'` : `'${name}'`),
    s: () => String(st.size),
    a: () => (st.mode & 0o7777).toString(8),
    A: () => symbolic(st),
    f: () => ((st.mode & 0o7777) | (st.isDirectory ? 0o40000 : st.isSymbolicLink ? 0o120000 : 0o100000)).toString(16),
    F: () => typeName(st),
    u: () => String(o.uid),
    g: () => String(o.gid),
    U: () => NAMES[o.uid] ?? String(o.uid),
    G: () => NAMES[o.gid] ?? String(o.gid),
    h: () => (st.isDirectory ? '2' : '1'),
    Y: () => seconds(st.mtime),
    X: () => seconds(st.mtime),
    Z: () => seconds(st.mtime),
    '%': () => '%',
  };
  return fmt.replace(/%(.)/g, (_, c: string) => {
    const v = values[c];
    if (!v) missing.d ??= `%${c}`;
    return v ? v() : '';
  });
}

async function stat(args: string[], fs: IFileSystem, cwd: string, orig: (a: string[]) => Promise<ExecResult>): Promise<ExecResult> {
  let format: string | undefined;
  let newline = true;
  let follow = false;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-c' || a === '--format') format = args[++i];
    else if (a.startsWith('--format=')) format = a.slice(9);
    else if (a.startsWith('-c') && a.length > 2) format = a.slice(2);
    else if (a === '--printf' || a.startsWith('--printf=')) {
      format = a === '--printf' ? args[++i] : a.slice(9);
      newline = false;
    } else if (a === '-L' || a === '--dereference') follow = true;
    else if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    else if (a.startsWith('-') && a.length > 1) return format === undefined && !follow ? orig(args) : refuse('stat', `option ${a}`);
    else operands.push(a);
  }
  if (format === undefined && !follow) return orig(args);
  if (format === undefined) return refuse('stat', 'the default format with -L');
  let fmt = format;
  if (!newline) {
    const e = escapes(format);
    if (e === null) return refuse('stat', `the escape in --printf '${format}'`);
    fmt = e;
  }
  if (operands.length === 0) return { stdout: '', stderr: "stat: missing operand\nTry 'stat --help' for more information.\n", exitCode: 1 };
  let stdout = '';
  let stderr = '';
  for (const name of operands) {
    const p = fs.resolvePath(cwd, name);
    let st: FsStat;
    try {
      st = follow ? await fs.stat(p) : await fs.lstat(p);
    } catch {
      stderr += `stat: cannot ${follow ? 'stat' : 'statx'} '${name}': No such file or directory\n`;
      continue;
    }
    const missing: { d?: string } = {};
    const line = await statLine(fmt, name, st, fs, p, missing);
    if (missing.d) return refuse('stat', `the format directive ${missing.d}`);
    stdout += line + (newline ? '\n' : '');
  }
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}

/** `stat` for just-bash's `customCommands` (`find` is find-command.ts's). */
export function statFindCommands(): CustomCommand[] {
  return [defineCommand('stat', (args, ctx) => stat(args, ctx.fs, ctx.cwd, (a) => ctx.origCommand!(a)))];
}
