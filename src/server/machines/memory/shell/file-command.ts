/**
 * GNU file(1) for the shell engine, over file-magic.ts: each operand's description (`-b` without the name), or its
 * MIME type and encoding (`-i`/`--mime`, `--mime-type`, `--mime-encoding`); `NAME:` padded so the answers line up
 * (`-N` keeps them unpadded); a symlink is described as one unless `-L`; a file it cannot open is said so on stdout
 * (`cannot open`), exit 0 unless `-E`; `-z` looks inside compressed files, so it changes nothing for others and fails
 * loudly on a compressed one. Other options fail loudly.
 * @see https://man7.org/linux/man-pages/man1/file.1.html
 */
import { strerror } from './errno-text.ts';
import { defineCommand, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { DEVICE_NUMBERS, ownerOf } from './devices.ts';
import { magic } from './file-magic.ts';

const HINT = 'run spritzer with --exec sandbox';

async function file(args: string[], ctx: CommandContext): Promise<ExecResult> {
  let brief = false;
  let follow = false;
  let noPad = false;
  let errors = false;
  let uncompress = false;
  let mime: 'none' | 'both' | 'type' | 'encoding' = 'none';
  const names: string[] = [];
  let options = true;
  for (const a of args) {
    if (options && a === '--') options = false;
    else if (options && a.startsWith('--')) {
      if (a === '--brief') brief = true;
      else if (a === '--mime') mime = 'both';
      else if (a === '--mime-type') mime = 'type';
      else if (a === '--mime-encoding') mime = 'encoding';
      else if (a === '--dereference') follow = true;
      else if (a === '--no-dereference') follow = false;
      else if (a === '--no-pad') noPad = true;
      else if (a === '--uncompress') uncompress = true;
      else return { stdout: '', stderr: `file: option ${a} is not available in the shell engine; ${HINT}\n`, exitCode: 2 };
    } else if (options && a.startsWith('-') && a.length > 1) {
      for (const c of a.slice(1)) {
        if (c === 'b') brief = true;
        else if (c === 'i') mime = 'both';
        else if (c === 'L') follow = true;
        else if (c === 'h') follow = false;
        else if (c === 'N') noPad = true;
        else if (c === 'E') errors = true;
        else if (c === 'z') uncompress = true;
        else return { stdout: '', stderr: `file: option -${c} is not available in the shell engine; ${HINT}\n`, exitCode: 2 };
      }
    } else names.push(a);
  }
  if (names.length === 0) return { stdout: '', stderr: 'Usage: file [-bcdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]\n            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]\n            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]\n            <file> ...\n       file -C [-m <magicfiles>]\n       file [--help]\n', exitCode: 1 };
  const width = Math.max(...names.map((n) => n.length)) + 1;
  let stdout = '';
  let stderr = '';
  let status = 0;
  for (const name of names) {
    const answer = await describe(name, ctx, follow, mime);
    if (uncompress && answer.compressed) return { stdout: '', stderr: `file: option -z on compressed data (${name}) is not available in the shell engine; ${HINT}\n`, exitCode: 2 };
    if (answer.missing && errors) {
      stderr += `${name}: ${answer.text}\n`;
      status = 1;
      continue;
    }
    stdout += brief ? `${answer.text}\n` : `${noPad ? `${name}:` : `${name}:`.padEnd(width)} ${answer.text}\n`;
  }
  return { stdout, stderr, exitCode: status };
}

/** The answer for one operand: a description (or MIME fields), whether it could not be opened, whether it is compressed. */
async function describe(name: string, ctx: CommandContext, follow: boolean, mime: 'none' | 'both' | 'type' | 'encoding'): Promise<{ text: string; missing?: boolean; compressed?: boolean }> {
  const abs = ctx.fs.resolvePath(ctx.cwd, name);
  const missing = { text: `cannot open \`${name}' (No such file or directory)`, missing: true };
  let failure: unknown;
  const lst = await ctx.fs.lstat(abs).catch((err: unknown) => ((failure = err), null));
  if (!lst) return { ...missing, text: `cannot open \`${name}' (${strerror(failure)})` };
  const form = (description: string, type: string, encoding: string) => (mime === 'none' ? description : mime === 'type' ? type : mime === 'encoding' ? encoding : `${type}; charset=${encoding}`);
  if (lst.isSymbolicLink && !follow) {
    const target = await ctx.fs.readlink(abs);
    const live = await ctx.fs.stat(abs).catch(() => null);
    return { text: form(`${live ? '' : 'broken '}symbolic link to ${target}`, 'inode/symlink', 'binary') };
  }
  const st = lst.isSymbolicLink ? await ctx.fs.stat(abs).catch(() => null) : lst;
  if (!st) return missing;
  if (st.isDirectory) return { text: form('directory', 'inode/directory', 'binary') };
  if (ownerOf(st).device) {
    const [major, minor] = DEVICE_NUMBERS[abs.slice(abs.lastIndexOf('/') + 1)] ?? [1, 3];
    return { text: form(`character special (${major}/${minor})`, 'inode/chardevice', 'binary') };
  }
  let unreadable = false;
  const bytes = await ctx.fs.readFileBuffer(abs).catch((err: unknown) => {
    if ((err as { code?: string }).code !== 'EACCES') throw err;
    unreadable = true;
    return new Uint8Array(0);
  });
  // A file the user may not read: libmagic's unreadable_info, from what access(2) allows besides reading.
  if (unreadable) {
    const may = (ctx.fs as { access?: (path: string, want: 2 | 1) => Promise<boolean> }).access?.bind(ctx.fs);
    const prefix = `${(await may?.(abs, 2)) ? 'writable, ' : ''}${(await may?.(abs, 1)) ? 'executable, ' : ''}`;
    return { text: form(`${prefix}regular file, no read permission`, 'application/x-unreadable', 'binary') };
  }
  const m = magic(bytes);
  const compressed = ['application/gzip', 'application/x-bzip2', 'application/x-xz', 'application/zstd'].includes(m.mime);
  return { text: form(m.description, m.mime, m.encoding), ...(compressed ? { compressed } : {}) };
}

/** `file` for just-bash's `customCommands`. */
export function fileCommand(): CustomCommand {
  return defineCommand('file', (args, ctx) => file(args, ctx));
}
