/**
 * Info-ZIP's `zip` and `unzip` for the shell engine, over zip-format.ts: `zip [-q] [-r] [-j] [-0…-9] ARCHIVE FILE…`
 * (create or update), `zip -d ARCHIVE NAME…` (delete); `unzip [-q|-qq] [-o|-n] [-j] [-d DIR] ARCHIVE [NAME…]`, `-l`, `-p`,
 * `-t`, `-Z1`, `-v`; `zip -u`, `-m`, `-D`, `-T`, `-x`/`-i` patterns; `zipinfo -1`. Messages, their streams and exit statuses are Info-ZIP's (zip 3.0, UnZip 6.0); other options fail
 * loudly.
 * @see zip(1), unzip(1) (Info-ZIP)
 */
import { bytesOutput, defineCommand, latin1FromBytes, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { percentSaved, readZip, type ZipEntry } from './zip-format.ts';
import { writeZip, type NewEntry } from './zip-write.ts';
import { DecompressLimitError } from './decompress-limit.ts';
import { AnswerLines } from './inherited-stdin.ts';

const HINT = 'run spritzer with --exec sandbox';
const loud = (cmd: string, opt: string): ExecResult => ({ stdout: '', stderr: `${cmd}: option ${opt} is not available in the shell engine; ${HINT}\n`, exitCode: 2 });
const bytesOf = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

async function statOf(ctx: CommandContext, path: string) {
  return ctx.fs.stat(ctx.fs.resolvePath(ctx.cwd, path)).catch(() => null);
}

/** The files under `path` (itself first; directories as `name/`), recursing when `recurse`. */
async function collect(ctx: CommandContext, path: string, recurse: boolean, junk: boolean): Promise<Array<{ name: string; abs: string; dir: boolean }>> {
  const abs = ctx.fs.resolvePath(ctx.cwd, path);
  const st = await ctx.fs.stat(abs);
  const clean = path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  const name = junk ? clean.slice(clean.lastIndexOf('/') + 1) : clean;
  if (!st.isDirectory) return [{ name, abs, dir: false }];
  // `-j` keeps no directories at all; without `-r` a directory operand adds only its own entry; `.` has none (its
  // members are named from there: `a.txt`, not `./a.txt`).
  const here = clean === '.' || clean === '';
  const out = junk || here ? [] : [{ name: `${name}/`, abs, dir: true }];
  if (!recurse) return out;
  for (const child of (await ctx.fs.readdir(abs)).sort()) out.push(...(await collect(ctx, here ? child : `${clean}/${child}`, true, junk)));
  return out;
}

/**
 * An Info-ZIP wildcard (`-x`, `-i`) as a regex over member names: `*` and `?` match `/` too (zip's default, no
 * `-ws`), `[…]` is a class; a directory member `d/` is matched with its slash.
 */
export function zipWildcard(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const close = c === '[' ? pattern.indexOf(']', i + 2) : -1;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (close > 0) {
      const body = pattern.slice(i + 1, close);
      re += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`.replace(/\\/g, '\\\\');
      i = close;
    } else re += c.replace(/[.+^${}()|\\\]/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's');
}

/** `zip`: creates or updates ARCHIVE with the FILE operands, or deletes members with `-d`. */
async function zip(args: string[], ctx: CommandContext): Promise<ExecResult> {
  let quiet = false;
  let recurse = false;
  let junk = false;
  let del = false;
  let level = 6;
  let update = false;
  let noDirs = false;
  let noExtras = false;
  let move = false;
  let test = false;
  let namesFromStdin = false;
  const ops: string[] = [];
  // -x and -i take the patterns that follow them, up to the next option (Info-ZIP's option lists).
  const excludes: string[] = [];
  const includes: string[] = [];
  let list: string[] | undefined;
  for (const a of args) {
    if (a === '-x' || a === '--exclude') list = excludes;
    else if (a === '-i' || a === '--include') list = includes;
    else if (a === '-@' || a === '--names-stdin') namesFromStdin = true;
    else if (/^-[a-zA-Z0-9]+$/.test(a)) {
      list = undefined;
      for (const c of a.slice(1)) {
        if (c === 'q') quiet = true;
        else if (c === 'r') recurse = true;
        else if (c === 'j') junk = true;
        else if (c === 'd') del = true;
        else if (c === 'u') update = true;
        else if (c === 'D') noDirs = true;
        else if (c === 'X') noExtras = true;
        else if (c === 'm') move = true;
        else if (c === 'T') test = true;
        else if (/\d/.test(c)) level = Number(c);
        else return loud('zip', `-${c}`);
      }
    } else if (a.startsWith('-') && a !== '-') return loud('zip', a);
    else if (list) list.push(a);
    else ops.push(a);
  }
  const wanted = (name: string) => !excludes.some((x) => zipWildcard(x).test(name)) && (includes.length === 0 || includes.some((x) => zipWildcard(x).test(name)));
  const [archive, ...operands] = ops;
  // -@: more names to add, one a line on stdin (zip 3.0).
  const names = namesFromStdin ? [...operands, ...latin1FromBytes(ctx.stdin).split('\n').filter((n) => n !== '')] : operands;
  if (archive === undefined) return { stdout: '', stderr: '\nzip error: Invalid command arguments (nothing to select from)\n', exitCode: 16 };
  // `-` as the archive: it is written to stdout (nothing to update), and the messages go to stderr (zip 3.0).
  if (archive === '-') return zipToStdout(names, { quiet, recurse, junk, level, noDirs, noExtras, wanted }, ctx);
  const path = /\.[^/]*$/.test(archive.slice(archive.lastIndexOf('/') + 1)) ? archive : `${archive}.zip`;
  const abs = ctx.fs.resolvePath(ctx.cwd, path);
  let existing: ZipEntry[] = [];
  if (await statOf(ctx, path)) {
    try {
      existing = await readZip(bytesOf(await ctx.fs.readFileBuffer(abs)));
    } catch {
      return { stdout: `\nzip error: Zip file structure invalid (${path})\n`, stderr: '', exitCode: 3 };
    }
  }
  let stdout = '';
  const nothing = () => ({ stdout: `${stdout}\nzip error: Nothing to do! (${path})\n`, stderr: '', exitCode: 12 });
  let entries: NewEntry[] = existing.map((e) => ({ name: e.name, data: e.data, mtime: e.mtime, mode: e.mode, level: e.method === 0 ? 0 : level, uid: e.uid, gid: e.gid }));
  if (del) {
    const keep = entries.filter((e) => !names.includes(e.name) && !names.includes(e.name.replace(/\/$/, '')));
    for (const n of names) if (!existing.some((e) => e.name === n || e.name === `${n}/`)) stdout += `\tzip warning: name not matched: ${n}\n`;
    if (keep.length === entries.length) return nothing();
    for (const e of entries) if (!keep.includes(e) && !quiet) stdout += `deleting: ${e.name}\n`;
    entries = keep;
  } else {
    const added: Array<{ name: string; updating: boolean; abs: string; dir: boolean }> = [];
    let stderr = '';
    for (const n of names) {
      if (!(await statOf(ctx, n))) {
        // Info-ZIP writes its warnings to stdout, with its other messages.
        if (!quiet) stdout += `\tzip warning: name not matched: ${n}\n`;
        continue;
      }
      for (const f of await collect(ctx, n, recurse, junk)) {
        if (!wanted(f.name) || (noDirs && f.dir)) continue;
        const st = await ctx.fs.stat(f.abs);
        // -u: only what is new, or newer than its member (to the second, by the time of its UT field).
        const old = existing.find((e) => e.name === f.name);
        if (update && old && Math.floor(st.mtime.getTime() / 1000) <= Math.floor(old.mtime.getTime() / 1000)) continue;
        const data = f.dir ? Buffer.alloc(0) : await readable(ctx, f.abs);
        if (data === null) {
          // Info-ZIP leaves out a file it may not read, warns, and ends with status 18 (ZE_OPEN).
          stderr += 'zip warning: Permission denied\n';
          if (!quiet) stdout += `\tzip warning: could not open for reading: ${f.name}\n`;
          continue;
        }
        const entry: NewEntry = { name: f.name, data, mtime: st.mtime, mode: (f.dir ? 0o40000 : 0o100000) | (st.mode & 0o7777), level, ...ownerOf(st) };
        const at = entries.findIndex((e) => e.name === f.name);
        if (at >= 0) entries[at] = entry;
        else entries.push(entry);
        added.push({ name: f.name, updating: at >= 0, abs: f.abs, dir: f.dir });
      }
    }
    // -u with everything up to date: status 12 and no message (zip 3.0).
    if (added.length === 0) return update && names.some((n) => existing.some((e) => e.name === n || e.name === `${n}/`)) ? { stdout, stderr: '', exitCode: 12 } : nothing();
    const { bytes, written } = writeZip(entries, { extras: !noExtras });
    await ctx.fs.writeFile(abs, bytes);
    if (!quiet) {
      for (const a of added) {
        const w = written.find((x) => x.name === a.name)!;
        stdout += `${a.updating ? 'updating' : '  adding'}: ${a.name} (${w.stored ? 'stored 0%' : `deflated ${percentSaved(w.size, w.compressedSize)}%`})\n`;
      }
    }
    // -T tests the new archive (it was just written whole); -m then deletes what went in, directories once empty.
    if (test && !quiet) stdout += `test of ${path} OK\n`;
    if (move) {
      for (const a of added.filter((x) => !x.dir)) await ctx.fs.rm(a.abs).catch(() => undefined);
      for (const a of added.filter((x) => x.dir).reverse()) if ((await ctx.fs.readdir(a.abs).catch(() => ['?'])).length === 0) await ctx.fs.rm(a.abs, { recursive: true }).catch(() => undefined);
    }
    return { stdout, stderr, exitCode: stderr ? 18 : 0 };
  }
  const { bytes } = writeZip(entries, { extras: !noExtras });
  await ctx.fs.writeFile(abs, bytes);
  return { stdout, stderr: '', exitCode: 0 };
}

/** The owner a file's stat carries (the sprite's VFS gives uid and gid), for zip's "ux" field. */
function ownerOf(st: object): { uid?: number; gid?: number } {
  const o = st as { uid?: number; gid?: number };
  return { uid: o.uid, gid: o.gid };
}

/** The bytes of the file at `abs`, or null when the user may not read it (EACCES); other errors are thrown. */
async function readable(ctx: CommandContext, abs: string): Promise<Buffer | null> {
  try {
    return bytesOf(await ctx.fs.readFileBuffer(abs));
  } catch (err) {
    if ((err as { code?: string }).code === 'EACCES') return null;
    throw err;
  }
}

/** `zip - FILE…`: the new archive on stdout, `adding:` lines on stderr. */
async function zipToStdout(names: string[], o: { quiet: boolean; recurse: boolean; junk: boolean; level: number; noDirs: boolean; noExtras: boolean; wanted: (name: string) => boolean }, ctx: CommandContext): Promise<ExecResult> {
  let stderr = '';
  const entries: NewEntry[] = [];
  for (const n of names) {
    if (!(await statOf(ctx, n))) {
      if (!o.quiet) stderr += `\tzip warning: name not matched: ${n}\n`;
      continue;
    }
    for (const f of await collect(ctx, n, o.recurse, o.junk)) {
      if (!o.wanted(f.name) || (o.noDirs && f.dir) || entries.some((e) => e.name === f.name)) continue;
      const st = await ctx.fs.stat(f.abs);
      entries.push({ name: f.name, data: f.dir ? Buffer.alloc(0) : bytesOf(await ctx.fs.readFileBuffer(f.abs)), mtime: st.mtime, mode: (f.dir ? 0o40000 : 0o100000) | (st.mode & 0o7777), level: o.level, ...ownerOf(st) });
    }
  }
  if (entries.length === 0) return { stdout: '', stderr: `${stderr}\nzip error: Nothing to do! (-)\n`, exitCode: 12 };
  // To a pipe zip cannot seek back: each member's sizes follow its data in a descriptor.
  const { bytes, written } = writeZip(entries, { extras: !o.noExtras, stream: true });
  if (!o.quiet) for (const w of written) stderr += `  adding: ${w.name} (${w.stored ? 'stored 0%' : `deflated ${percentSaved(w.size, w.compressedSize)}%`})\n`;
  return { ...bytesOutput(unsafeBytesFromLatin1(bytesOf(bytes).toString('latin1'))), stderr, exitCode: 0 };
}

/** `YYYY-MM-DD HH:MM` of a member's time, as unzip -l prints it (the sprite's zone is UTC). */
const listedTime = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ');

/**
 * `unzip -v`'s table, as UnZip 6.0 prints it: length, method (`Stored`, `Defl:N`/`X`/`F`/`S` by the deflate option
 * bits), compressed size, the percentage saved, date, time, CRC-32, name; then the totals.
 */
function verboseListing(picked: ZipEntry[]): string {
  const row = (size: number, method: string, csize: number, when: string, crc: string, name: string) =>
    `${String(size).padStart(8)}  ${method.padEnd(6)} ${String(csize).padStart(8)} ${`${percentSaved(size, csize)}%`.padStart(4)} ${when} ${crc}  ${name}\n`;
  const method = (e: ZipEntry) => (e.method === 0 ? 'Stored' : e.method === 8 ? `Defl:${'NXFS'[(e.flags >> 1) & 3]}` : `Unk:${String(e.method).padStart(3, '0')}`);
  const rows = picked.map((e) => row(e.data.length, method(e), e.compressedSize, listedTime(e.mtime), e.crc32.toString(16).padStart(8, '0'), e.name)).join('');
  const size = picked.reduce((n, e) => n + e.data.length, 0);
  const csize = picked.reduce((n, e) => n + e.compressedSize, 0);
  const total = `${String(size).padStart(8)}          ${String(csize).padStart(7)} ${`${percentSaved(size, csize)}%`.padStart(4)}${' '.repeat(28)}${picked.length} file${picked.length === 1 ? '' : 's'}\n`;
  return ` Length   Method    Size  Cmpr    Date    Time   CRC-32   Name\n--------  ------  ------- ---- ---------- ----- --------  ----\n${rows}--------          -------  ---${' '.repeat(28)}-------\n${total}`;
}

/** `zipinfo -1 ARCHIVE [NAME…]`: the member names, one a line (UnZip's `unzip -Z1`); other zipinfo forms are loud. */
async function zipinfo(args: string[], ctx: CommandContext): Promise<ExecResult> {
  if (args[0] !== '-1') return loud('zipinfo', args[0] ?? '(no archive)');
  return unzip(['-Z1', ...args.slice(1)], ctx);
}

/** `unzip`: extracts, lists (-l, -Z1), tests (-t) or pipes (-p) the members of an archive. */
async function unzip(args: string[], ctx: CommandContext): Promise<ExecResult> {
  let quiet = 0;
  let mode: 'x' | 'l' | 'v' | 'p' | 't' | 'Z1' = 'x';
  let overwrite: 'ask' | 'always' | 'never' = 'ask';
  let dest: string | undefined;
  let junkPaths = false;
  const ops: string[] = [];
  // `-x NAME…`: members left out, up to the next option (UnZip's xlist).
  const excluded: string[] = [];
  let excluding = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-x') excluding = true;
    else if (excluding && !a.startsWith('-')) excluded.push(a);
    else if (a === '-Z1') mode = 'Z1';
    // zipinfo mode's own options follow -Z as words of their own (`unzip -Z -1`).
    else if (a === '-Z' && args[i + 1] === '-1') {
      mode = 'Z1';
      i++;
    } else if (a === '-d') dest = args[++i];
    else if (/^-[a-zA-Z]+$/.test(a)) {
      for (const [j, c] of [...a.slice(1)].entries()) {
        // -d in a cluster takes the rest of it, or the next word (`unzip -qd out a.zip`).
        if (c === 'd') {
          dest = j + 2 < a.length ? a.slice(j + 2) : args[++i];
          break;
        }
        if (c === 'q') quiet++;
        else if (c === 'l') mode = 'l';
        else if (c === 'v') mode = 'v';
        else if (c === 'p') mode = 'p';
        else if (c === 't') mode = 't';
        else if (c === 'o') overwrite = 'always';
        else if (c === 'n') overwrite = 'never';
        else if (c === 'j') junkPaths = true;
        else return loud('unzip', `-${c}`);
      }
    } else ops.push(a);
    if (a !== '-x' && a.startsWith('-')) excluding = false;
  }
  const [archive, ...members] = ops;
  if (archive === undefined) return loud('unzip', '(no archive)');
  const candidates = [archive, `${archive}.zip`, `${archive}.ZIP`];
  let found: string | undefined;
  for (const c of candidates) if ((await statOf(ctx, c))?.isFile) found ??= c;
  if (!found) return { stdout: '', stderr: `unzip:  cannot find or open ${candidates.join(', ').replace(/, ([^,]*)$/, ' or $1')}.\n`, exitCode: 9 };
  let entries: ZipEntry[];
  try {
    entries = await readZip(bytesOf(await ctx.fs.readFileBuffer(ctx.fs.resolvePath(ctx.cwd, found))));
  } catch (err) {
    // Past the shell engine's decompression cap unzip fails as on a full disk (Info-ZIP's exit 50; docs/limits.md).
    if (err instanceof DecompressLimitError) return { stdout: quiet ? '' : `Archive:  ${found}\n`, stderr: `error:  ${found}: write error (disk full?)\n`, exitCode: 50 };
    // Quiet, the archive is named in brackets on stderr instead (UnZip 6.0, -qq too).
    return { stdout: quiet ? '' : `Archive:  ${found}\n`, stderr: `${quiet ? `[${found}]\n` : ''}  End-of-central-directory signature not found.  Either this file is not\n  a zipfile, or it constitutes one disk of a multi-part archive.  In the\n  latter case the central directory and zipfile comment will be found on\n  the last disk(s) of this archive.\nunzip:  cannot find zipfile directory in one of ${found} or\n        ${found}.zip, and cannot find ${found}.ZIP, period.\n`, exitCode: 9 };
  }
  // A member operand with wildcards matches as zip's do (`*` crosses `/`).
  const matches = (pattern: string, name: string) => (/[*?[]/.test(pattern) ? zipWildcard(pattern).test(name) : pattern === name);
  const picked = entries.filter((e) => (members.length === 0 || members.some((m) => matches(m, e.name))) && !excluded.some((x) => matches(x, e.name)));
  const unmatched = members.filter((m) => !entries.some((e) => matches(m, e.name)));
  const caution = unmatched.map((m) => `caution: filename not matched:  ${m}\n`).join('');
  const header = quiet ? '' : `Archive:  ${found}\n`;
  const status = unmatched.length > 0 ? 11 : 0;
  if (mode === 'Z1') return { stdout: picked.map((e) => `${e.name}\n`).join(''), stderr: caution, exitCode: status };
  if (mode === 'p') return { ...bytesOutput(unsafeBytesFromLatin1(Buffer.concat(picked.map((e) => e.data)).toString('latin1'))), stderr: caution, exitCode: status };
  if (mode === 'l') {
    const total = picked.reduce((n, e) => n + e.data.length, 0);
    const rows = picked.map((e) => `${String(e.data.length).padStart(9)}  ${listedTime(e.mtime)}   ${e.name}\n`).join('');
    const body = quiet >= 2 ? rows : `${header}  Length      Date    Time    Name\n---------  ---------- -----   ----\n${rows}---------                     -------\n${String(total).padStart(9)}                     ${picked.length} file${picked.length === 1 ? '' : 's'}\n`;
    return { stdout: body, stderr: caution, exitCode: status };
  }
  if (mode === 'v') return { stdout: header + verboseListing(picked), stderr: caution, exitCode: status };
  if (mode === 't') {
    // -q keeps only the verdict, -qq not even that.
    const lines = quiet ? '' : picked.map((e) => `    testing: ${e.name.padEnd(24)} OK\n`).join('');
    return { stdout: quiet >= 2 ? '' : `${header}${lines}No errors detected in compressed data of ${found}.\n`, stderr: caution, exitCode: status };
  }
  const base = dest === undefined ? '' : `${dest.replace(/\/+$/, '')}/`;
  if (dest !== undefined) await ctx.fs.mkdir(ctx.fs.resolvePath(ctx.cwd, dest), { recursive: true });
  let stdout = header;
  let stderr = '';
  let exitCode = status;
  const answers = new AnswerLines(() => String(ctx.stdin ?? ''));
  for (const e of picked) {
    // -j: every file lands in the destination itself, under its last name; directories are not made.
    if (junkPaths && e.name.endsWith('/')) continue;
    const target = `${base}${junkPaths ? e.name.slice(e.name.lastIndexOf('/') + 1) : e.name}`;
    const abs = ctx.fs.resolvePath(ctx.cwd, target);
    if (e.name.endsWith('/')) {
      await ctx.fs.mkdir(abs, { recursive: true });
      if (!quiet) stdout += `   creating: ${target}\n`;
      continue;
    }
    if (await statOf(ctx, target)) {
      if (overwrite === 'never') continue;
      if (overwrite === 'ask') {
        // Info-ZIP asks on the terminal; an exec's stdin answers, and its end means [N]one.
        const answer = answers.shift();
        stderr += `replace ${target}? [y]es, [n]o, [A]ll, [N]one, [r]ename: `;
        if (answer === undefined || (answer === '' && answers.length === 0)) {
          stderr += ' NULL\n(EOF or read error, treating as "[N]one" ...)\n';
          overwrite = 'never';
          exitCode = Math.max(exitCode, 1);
          continue;
        }
        if (answer === 'A') overwrite = 'always';
        else if (answer === 'N') {
          overwrite = 'never';
          continue;
        } else if (answer !== 'y') {
          if (answer === 'r') return loud('unzip', '[r]ename');
          continue;
        }
      }
    }
    await ctx.fs.mkdir(abs.slice(0, abs.lastIndexOf('/')) || '/', { recursive: true });
    await ctx.fs.writeFile(abs, e.data);
    await ctx.fs.chmod(abs, e.mode & 0o7777 || 0o644);
    await ctx.fs.utimes(abs, e.mtime, e.mtime);
    if (!quiet) stdout += `${(e.method === 0 ? 'extracting' : 'inflating').padStart(11)}: ${target.padEnd(22)}  \n`;
  }
  return { stdout, stderr: caution + stderr, exitCode };
}

/** Names of the commands of {@link zipCommands} (each needs its `/bin` stub to be found on PATH). */
export const ZIP_COMMAND_NAMES: readonly string[] = ['zip', 'unzip', 'zipinfo'];

/** `zip`, `unzip` and `zipinfo`, for just-bash's `customCommands`. */
export function zipCommands(): CustomCommand[] {
  return [defineCommand('zip', (args, ctx) => zip(args, ctx)), defineCommand('unzip', (args, ctx) => unzip(args, ctx)), defineCommand('zipinfo', (args, ctx) => zipinfo(args, ctx))];
}

