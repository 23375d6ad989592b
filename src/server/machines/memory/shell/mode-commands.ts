/**
 * GNU `chmod`, `mkdir` and `rmdir` over the sprite's filesystem: octal and symbolic modes (`u=rwX,go=rX`,
 * `o+t`, `a-x,u+s`, the 022 umask for a mode without `ugoa`), `chmod -R -c -v --reference`, `mkdir -m -p -v`
 * (each component made in turn, so `a/b/../c` makes `a/b`), `rmdir -p --ignore-fail-on-non-empty`.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/File-permissions.html, chmod-invocation.html,
 *   mkdir-invocation.html, rmdir-invocation.html
 */
import { defineCommand, type CustomCommand, type ExecResult, type FsStat, type IFileSystem } from 'just-bash';
import { strerror } from './errno-text.ts';
import { permissions } from './ls-long.ts';
import { ownerOf } from './devices.ts';
import { OrderedOutput } from './output-order.ts';
import { localeQuote } from './gnu-quote.ts';
import { accountOf, GROUP_IDS, GROUP_NAMES, USER_IDS, USER_NAMES } from '../accounts.ts';

/** The running shell's file mode creation mask (bash's `umask`), which the filesystem carries; 0022 without one. */
const umaskOf = (fs: IFileSystem): number => {
  const m = (fs as { umask?: unknown }).umask;
  return typeof m === 'number' ? m : 0o022;
};
const usage = (cmd: string, what: string): ExecResult => ({ stdout: '', stderr: `${cmd}: ${what}\nTry '${cmd} --help' for more information.\n`, exitCode: 1 });
const safe = async <T>(p: Promise<T>): Promise<T | null> => p.catch(() => null);

/**
 * Applies a chmod mode (octal, or symbolic clauses joined by `,`) to `mode` (the file's, with 0o7777 bits) of a
 * file that `isDir` or not; a clause without `ugoa` leaves the bits of `umask` alone. Null when the mode does not parse.
 */
export function applyMode(spec: string, mode: number, isDir: boolean, umask = 0o022): number | null {
  if (/^[0-7]{1,4}$/.test(spec)) {
    const n = parseInt(spec, 8);
    // GNU keeps a directory's set-user/group-ID bits unless the octal mode names them (5+ digits).
    return isDir && spec.length < 4 ? n | (mode & 0o6000) : n;
  }
  let m = mode & 0o7777;
  for (const clause of spec.split(',')) {
    const c = /^([ugoa]*)((?:[-+=](?:[rwxXst]*|[ugo]))+)$/.exec(clause);
    if (!c) return null;
    const who = c[1] || '';
    const mask = who === '' ? 0o7777 & ~umask : [...who].reduce((acc, w) => acc | (w === 'u' ? 0o4700 : w === 'g' ? 0o2070 : w === 'o' ? 0o1007 : 0o7777), 0);
    for (const op of c[2]!.match(/[-+=][^-+=]*/g)!) {
      const perms = op.slice(1);
      let bits = 0;
      if (/^[ugo]$/.test(perms)) {
        const shift = perms === 'u' ? 6 : perms === 'g' ? 3 : 0;
        const v = (m >> shift) & 7;
        bits = (v << 6) | (v << 3) | v;
      } else {
        for (const p of perms) {
          if (p === 'r') bits |= 0o444;
          if (p === 'w') bits |= 0o222;
          if (p === 'x' || (p === 'X' && (isDir || (mode & 0o111) !== 0))) bits |= 0o111;
          if (p === 's') bits |= 0o6000;
          if (p === 't') bits |= 0o1000;
        }
      }
      const eff = bits & mask;
      if (op[0] === '+') m |= eff;
      else if (op[0] === '-') m &= ~eff;
      else m = (m & ~(who === '' ? 0o7777 : mask)) | eff;
    }
  }
  return m;
}

const describe = (mode: number) => `${(mode & 0o7777).toString(8).padStart(4, '0')} (${permissions(mode)})`;

async function chmod(args: string[], fs: IFileSystem, cwd: string, env: Map<string, string>): Promise<ExecResult> {
  let recursive = false;
  let changes = false;
  let verbose = false;
  let quiet = false;
  let reference: string | undefined;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      rest.push(...args.slice(i + 1));
      break;
    }
    if (a === '--recursive') recursive = true;
    else if (a === '--changes') changes = true;
    else if (a === '--verbose') verbose = true;
    else if (a === '--silent' || a === '--quiet') quiet = true;
    else if (a.startsWith('--reference=')) reference = a.slice(12);
    else if (a === '--preserve-root' || a === '--no-preserve-root') continue;
    else if (a.startsWith('--')) return usage('chmod', `unrecognized option '${a}'`);
    else if (/^-[RcvfrwxXst]+$/.test(a) && /[Rcvf]/.test(a) && !/[rwxXst]/.test(a)) {
      for (const c of a.slice(1)) {
        if (c === 'R') recursive = true;
        if (c === 'c') changes = true;
        if (c === 'v') verbose = true;
        if (c === 'f') quiet = true;
      }
    } else rest.push(a);
  }
  let spec = reference === undefined ? rest.shift() : undefined;
  if (reference !== undefined) {
    const st = await safe(fs.stat(fs.resolvePath(cwd, reference)));
    if (!st) return { stdout: '', stderr: `chmod: failed to get attributes of '${reference}': No such file or directory\n`, exitCode: 1 };
    spec = (st.mode & 0o7777).toString(8);
  }
  if (spec === undefined) return usage('chmod', 'missing operand');
  if (rest.length === 0) return usage('chmod', `missing operand after '${spec}'`);
  if (applyMode(spec, 0o644, false) === null) return usage('chmod', `invalid mode: ${localeQuote(env, spec)}`);
  // GNU reports through error(), which flushes what -v printed so far: program order.
  const text = new OrderedOutput();
  let failed = false;
  const change = async (name: string, abs: string, st: FsStat, top: boolean): Promise<void> => {
    if (st.isSymbolicLink && !top) return;
    const real = st.isSymbolicLink ? await safe(fs.stat(abs)) : st;
    if (!real) {
      failed = true;
      if (!quiet) text.err(`chmod: cannot operate on dangling symlink '${name}'\n`);
      return;
    }
    const next = applyMode(spec!, real.mode, real.isDirectory, umaskOf(fs))!;
    if (next !== (real.mode & 0o7777)) {
      try {
        await fs.chmod(abs, next);
      } catch (err) {
        // Not the owner (root's files, for the sprite user): chmod(2)'s EPERM.
        failed = true;
        if (!quiet) text.err(`chmod: changing permissions of '${name}': ${strerror(err)}\n`);
        return;
      }
      if (changes || verbose) text.out(`mode of '${name}' changed from ${describe(real.mode)} to ${describe(next)}\n`);
    } else if (verbose) text.out(`mode of '${name}' retained as ${describe(real.mode)}\n`);
    if (recursive && st.isDirectory) {
      // A directory the user may not read (`chmod -R a-r d` takes its own r first): GNU says so and goes on.
      const names = await fs.readdir(abs).catch((err: unknown) => {
        if ((err as { code?: string }).code !== 'EACCES') throw err;
        failed = true;
        if (!quiet) text.err(`chmod: cannot read directory '${name}': Permission denied\n`);
        return [] as string[];
      });
      for (const c of names) {
        const cabs = `${abs.replace(/\/+$/, '')}/${c}`;
        const cst = await safe(fs.lstat(cabs));
        if (cst) await change(`${name.replace(/\/+$/, '')}/${c}`, cabs, cst, false);
      }
    }
  };
  for (const name of rest) {
    const abs = fs.resolvePath(cwd, name);
    let failure: unknown;
    const st = await fs.lstat(abs).catch((err: unknown) => ((failure = err), null));
    if (!st) {
      failed = true;
      if (!quiet) text.err(`chmod: cannot access '${name}': ${strerror(failure)}\n`);
      continue;
    }
    await change(name, abs, st, true);
  }
  return text.result(failed ? 1 : 0, 'before-errors');
}

async function mkdir(args: string[], fs: IFileSystem, cwd: string, env: Map<string, string>): Promise<ExecResult> {
  let parents = false;
  let verbose = false;
  let mode: string | undefined;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a === '--parents') parents = true;
    else if (a === '--verbose') verbose = true;
    else if (a.startsWith('--mode=')) mode = a.slice(7);
    else if (a === '--mode') mode = args[++i];
    else if (a.startsWith('--')) return usage('mkdir', `unrecognized option '${a}'`);
    else if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === 'p') parents = true;
        else if (c === 'v') verbose = true;
        else if (c === 'm') {
          mode = a.slice(j + 1) || args[++i];
          break;
        } else if (c === 'Z') continue;
        else return usage('mkdir', `invalid option -- '${c}'`);
      }
    } else operands.push(a);
  }
  if (operands.length === 0) return usage('mkdir', 'missing operand');
  const finalMode = mode === undefined ? null : applyMode(mode, 0o777, true, umaskOf(fs));
  if (mode !== undefined && finalMode === null) return { stdout: '', stderr: `mkdir: invalid mode ${localeQuote(env, mode)}\n`, exitCode: 1 };
  // GNU reports through error(), which flushes what -v printed so far: program order.
  const text = new OrderedOutput();
  for (const name of operands) {
    const parts = name.split('/');
    const steps = parents ? parts.map((_, i) => parts.slice(0, i + 1).join('/')).filter((p, i) => parts[i] !== '' && p !== '') : [name];
    for (const [i, step] of steps.entries()) {
      const abs = fs.resolvePath(cwd, step);
      const last = i === steps.length - 1;
      const st = await safe(fs.stat(abs));
      if (st) {
        if (!parents) text.err(`mkdir: cannot create directory ${localeQuote(env, name)}: File exists\n`);
        else if (!st.isDirectory) text.err(`mkdir: cannot create directory ${localeQuote(env, step)}: Not a directory\n`);
        if (!parents || !st.isDirectory) break;
        continue;
      }
      try {
        await fs.mkdir(abs);
        if (last && finalMode !== null) await fs.chmod(abs, finalMode & 0o7777);
        // GNU gives a parent `-p` makes write and search for its owner whatever the mask, so it can go on.
        else if (!last && (umaskOf(fs) & 0o300) !== 0) await fs.chmod(abs, (0o777 & ~umaskOf(fs)) | 0o300);
        if (verbose) text.out(`mkdir: created directory '${step}'\n`);
      } catch (err) {
        text.err(`mkdir: cannot create directory ${localeQuote(env, step)}: ${strerror(err)}\n`);
        break;
      }
    }
  }
  return text.result(text.stderr ? 1 : 0, 'before-errors');
}

async function rmdir(args: string[], fs: IFileSystem, cwd: string): Promise<ExecResult> {
  let parents = false;
  let ignoreNonEmpty = false;
  let verbose = false;
  const operands: string[] = [];
  for (const a of args) {
    if (a === '--ignore-fail-on-non-empty') ignoreNonEmpty = true;
    else if (a === '--parents') parents = true;
    else if (a === '--verbose') verbose = true;
    else if (a.startsWith('--')) return usage('rmdir', `unrecognized option '${a}'`);
    else if (/^-[pv]+$/.test(a)) (parents ||= a.includes('p')), (verbose ||= a.includes('v'));
    else if (a.startsWith('-') && a.length > 1) return usage('rmdir', `invalid option -- '${a.replace(/[-pv]/g, '')[0]}'`);
    else operands.push(a);
  }
  if (operands.length === 0) return usage('rmdir', 'missing operand');
  // GNU reports through error(), which flushes what -v printed so far: program order.
  const text = new OrderedOutput();
  let failed = false;
  for (const name of operands) {
    let path = name.replace(/\/+$/, '') || name;
    // GNU's -p words a parent it fails on differently from the operand: `failed to remove directory 'x'`.
    let parent = false;
    for (;;) {
      const abs = fs.resolvePath(cwd, path);
      // GNU rmdir -v names each directory before it tries to remove it, failing or not.
      if (verbose) text.out(`rmdir: removing directory, '${path}'\n`);
      const st = await safe(fs.lstat(abs));
      let err: string | null = null;
      if (!st) err = 'No such file or directory';
      else if (!st.isDirectory) err = 'Not a directory';
      // rmdir(2) itself tells an empty directory: it needs no read permission on it (a `chmod 000` one goes).
      else err = await fs.rm(abs).then(() => null, (e: unknown) => ((e as { code?: string }).code === 'ENOTEMPTY' ? (ignoreNonEmpty ? '' : 'Directory not empty') : strerror(e)));
      if (err === '') break;
      if (err) {
        text.err(`rmdir: failed to remove ${parent ? 'directory ' : ''}'${path}': ${err}\n`);
        failed = true;
        break;
      }
      if (!parents || !path.includes('/')) break;
      path = path.slice(0, path.lastIndexOf('/')).replace(/\/+$/, '');
      if (!path) break;
      parent = true;
    }
  }
  return text.result(failed ? 1 : 0, 'before-errors');
}

/** `user:group`, `user` or `group`: how chown's messages name an ownership (coreutils chown-core.c user_group_str). */
const ownership = (user: string | null, group: string | null): string => (user !== null && group !== null ? `${user}:${group}` : (user ?? group ?? ''));

/**
 * The line `chown -v` (every file) or `-c` (changed files) prints for one file, as coreutils' describe_change:
 * `changed ownership of 'f' from root to sprite`, `ownership of 'f' retained as sprite:sprite`, `changed group of
 * 'f' from …`, `failed to change ownership of 'f' from sprite to root` (after the error). `to`/`from` name what the
 * command asked for (user, group or both) and what the file had.
 */
function describeChange(name: string, outcome: 'changed' | 'failed' | 'retained', to: { user: string | null; group: string | null }, from: { user: string | null; group: string | null }): string {
  const what = to.user !== null ? 'ownership' : 'group';
  const spec = ownership(to.user, to.group);
  const old = ownership(from.user, from.group);
  if (outcome === 'retained') return `${what} of '${name}' retained as ${spec}\n`;
  return `${outcome === 'changed' ? 'changed' : 'failed to change'} ${what} of '${name}' from ${old} to ${spec}\n`;
}

/**
 * `chown OWNER[:GROUP] FILE…` and `chgrp GROUP FILE…`: naming the owner and group a file already has succeeds (as
 * on Linux); any other change is made when the filesystem lets the user (root under `sudo`, the sprite user of an
 * exec session holding CAP_CHOWN) and refused with Linux's EPERM otherwise (a service's plain sprite user).
 */
async function chown(cmd: 'chown' | 'chgrp', args: string[], fs: IFileSystem, cwd: string): Promise<ExecResult> {
  const rest: string[] = [];
  let recursive = false;
  let quiet = false;
  let verbosity: 'off' | 'changes' | 'high' = 'off';
  for (const a of args) {
    if (a === '-R' || a === '--recursive') recursive = true;
    else if (a === '-f' || a === '--silent' || a === '--quiet') quiet = true;
    else if (a === '--verbose') verbosity = 'high';
    else if (a === '--changes') verbosity = 'changes';
    else if (/^-[hvcfRHLP]+$/.test(a)) {
      // the last of -v and -c counts, as getopt hands them to chown one by one
      for (const f of a.slice(1)) {
        if (f === 'v') verbosity = 'high';
        else if (f === 'c') verbosity = 'changes';
        else if (f === 'R') recursive = true;
        else if (f === 'f') quiet = true;
      }
    } else if (a === '--no-dereference' || a === '--dereference') continue;
    else if (a.startsWith('-') && a.length > 1) return { stdout: '', stderr: `${cmd}: option ${a} is not available in the shell engine; run spritzer with --exec sandbox\n`, exitCode: 2 };
    else rest.push(a);
  }
  const spec = rest.shift();
  if (spec === undefined || rest.length === 0) return usage(cmd, spec === undefined ? 'missing operand' : `missing operand after '${spec}'`);
  const [user, written] = cmd === 'chgrp' ? ['', spec] : spec.split(/[:.]/, 2) as [string, string | undefined];
  const id = (n: string | undefined, ids: Readonly<Record<string, number>>) => (n === undefined || n === '' ? undefined : /^\d+$/.test(n) ? Number(n) : ids[n]);
  const uid = id(user, USER_IDS);
  // `OWNER:` (a separator, no group) is the owner's login group, as chown(1) says
  const login = uid === undefined ? undefined : accountOf(uid)?.gid;
  const group = written === '' && user && uid !== undefined ? (login === undefined ? String(uid) : (GROUP_NAMES[login] ?? String(login))) : written;
  const gid = id(group, GROUP_IDS);
  if (user && uid === undefined) return { stdout: '', stderr: `${cmd}: invalid user: '${spec}'\n`, exitCode: 1 };
  if (group && gid === undefined) return { stdout: '', stderr: `${cmd}: invalid group: '${spec}'\n`, exitCode: 1 };
  const named = (given: string | undefined, n: number | undefined, names: Record<number, string>) =>
    given === undefined || given === '' ? null : /^\d+$/.test(given) ? (names[n!] ?? given) : given;
  const to = { user: cmd === 'chgrp' ? null : named(user, uid, USER_NAMES), group: named(group, gid, GROUP_NAMES) };
  let stdout = '';
  let stderr = '';
  let failed = false;
  let unavailable = false;
  const visit = async (name: string, abs: string): Promise<void> => {
    const st = await safe(fs.stat(abs));
    if (!st) {
      failed = true;
      if (!quiet) stderr += `${cmd}: cannot access '${name}': No such file or directory\n`;
      return;
    }
    // chown -R changes a directory after what it holds (fts's post-order visit), as GNU's messages show
    if (recursive && st.isDirectory) for (const c of await fs.readdir(abs)) await visit(`${name.replace(/\/+$/, '')}/${c}`, `${abs.replace(/\/+$/, '')}/${c}`);
    const o = ownerOf(st);
    const from = { user: to.user === null ? null : (USER_NAMES[o.uid] ?? String(o.uid)), group: to.group === null ? null : (GROUP_NAMES[o.gid] ?? String(o.gid)) };
    if ((uid !== undefined && uid !== o.uid) || (gid !== undefined && gid !== o.gid)) {
      const owned = fs as IFileSystem & { chown?: (p: string, uid: number, gid: number) => Promise<void> };
      // The filesystem says who may (root, an exec session's CAP_CHOWN): chown(2)'s EPERM for anyone else.
      const refused = owned.chown ? await owned.chown(abs, uid ?? -1, gid ?? -1).then(() => false, (err: unknown) => {
        if ((err as { code?: string }).code !== 'EPERM') throw err;
        return true;
      }) : undefined;
      if (refused === false) {
        if (verbosity !== 'off') stdout += describeChange(name, 'changed', to, from);
      } else if (refused === undefined) {
        stderr += `${cmd}: changing the owner of files is not available in this filesystem; run spritzer with --exec sandbox\n`;
        failed = true;
        unavailable = true;
        return;
      } else {
        failed = true;
        if (!quiet) stderr += `${cmd}: changing ${cmd === 'chgrp' || uid === undefined ? 'group' : 'ownership'} of '${name}': Operation not permitted\n`;
        if (verbosity === 'high') stdout += describeChange(name, 'failed', to, from);
      }
    } else if (verbosity === 'high') stdout += describeChange(name, 'retained', to, from);
  };
  for (const name of rest) await visit(name, fs.resolvePath(cwd, name));
  return { stdout, stderr, exitCode: failed ? (unavailable ? 2 : 1) : 0 };
}

/** `chmod`, `mkdir`, `rmdir`, `chown` and `chgrp` for just-bash's `customCommands`. */
export function modeCommands(): CustomCommand[] {
  return [
    defineCommand('chown', (args, ctx) => chown('chown', args, ctx.fs, ctx.cwd)),
    defineCommand('chgrp', (args, ctx) => chown('chgrp', args, ctx.fs, ctx.cwd)),
    defineCommand('chmod', (args, ctx) => chmod(args, ctx.fs, ctx.cwd, ctx.env)),
    defineCommand('mkdir', (args, ctx) => mkdir(args, ctx.fs, ctx.cwd, ctx.env)),
    defineCommand('rmdir', (args, ctx) => rmdir(args, ctx.fs, ctx.cwd)),
  ];
}
