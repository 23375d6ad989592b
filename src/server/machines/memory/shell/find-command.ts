/**
 * GNU `find` over the sprite's filesystem, replacing just-bash's: the walk (depth limits, `-depth`, `-H`/`-L`,
 * `-prune`, `-quit`), the tests of find-parse.ts evaluated per file with `-a`/`-o`/`!` short-circuiting, and the
 * actions (`-print`, `-print0`, `-printf` through find-printf.ts, `-delete`, `-exec`/`-execdir` with `;` or `+`,
 * run as commands of the same shell). Directory entries are visited in the sprite's directory order.
 * @see https://www.gnu.org/software/findutils/manual/html_node/find_html/index.html
 */
import { notOnPath, programNotFound, reportExecFailure } from './exec-failure.ts';
import { accessTime, compareTimes, fileTime } from './file-time.ts';
import { defineCommand, type CommandContext, type CustomCommand, type ExecResult, type FsStat, type IFileSystem } from 'just-bash';
import { shellQuote } from '../argv.ts';
import { inodeNumber, linkCount, ownerOf, sameFile } from './devices.ts';
import { fnmatch } from './fnmatch.ts';
import { compileFormat, formatFile, typeLetter, type FileFacts } from './find-printf.ts';
import { findRefusal, parseFind, type FindCommand, type FindError, type FindNode } from './find-parse.ts';
import { orderOf, type OrderedResult } from './output-order.ts';
import { localeQuote } from './gnu-quote.ts';
import { parseDate } from './touch-command.ts';
import { execOnOwnStdin } from './inherited-stdin.ts';

import { SPRITE_UID } from '../../../../protocol/sprite-tree.ts';
import { GROUP_IDS, spriteUserInGroup, USER_IDS } from '../accounts.ts';

const UNIT_BYTES: Record<string, number> = { c: 1, w: 2, b: 512, k: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** A file as the walk reaches it. */
interface Visit extends FileFacts {
  abs: string;
}

/** An emacs regular expression (find's default type) as a JavaScript one: `\(`, `\)`, `\|` group; `(`, `|`, `{` are literal. */
function emacsRegex(src: string): string {
  let out = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\' && i + 1 < src.length) {
      const n = src[++i]!;
      out += '()|{}'.includes(n) ? n : `\\${n}`;
    } else out += '()|{}'.includes(c) ? `\\${c}` : c;
  }
  return out;
}

/** A `[+-]N` comparison of `value` (already in the test's unit, rounded as find rounds). */
function compareNumber(arg: string, value: number): boolean {
  const n = Number(arg.replace(/^[+-]/, ''));
  if (arg.startsWith('+')) return value > n;
  if (arg.startsWith('-')) return value < n;
  return value === n;
}

/** `-perm MODE`, `-perm -MODE`, `-perm /MODE` with an octal or symbolic mode; null when the mode does not parse. */
function permTest(arg: string): ((mode: number) => boolean) | null {
  const kind = arg[0] === '-' || arg[0] === '/' ? arg[0] : '';
  const spec = kind ? arg.slice(1) : arg;
  let want = 0;
  if (/^[0-7]+$/.test(spec)) want = parseInt(spec, 8);
  else {
    for (const clause of spec.split(',')) {
      const m = /^([ugoa]*)([+=])([rwxst]*)$/.exec(clause);
      if (!m) return null;
      const who = m[1] || 'a';
      let bits = 0;
      for (const w of who === 'a' ? 'ugo' : who) {
        const shift = w === 'u' ? 6 : w === 'g' ? 3 : 0;
        for (const p of m[3]!) {
          if (p === 'r') bits |= 4 << shift;
          if (p === 'w') bits |= 2 << shift;
          if (p === 'x') bits |= 1 << shift;
          if (p === 's' && w !== 'o') bits |= w === 'u' ? 0o4000 : 0o2000;
          if (p === 't') bits |= 0o1000;
        }
      }
      want |= bits;
    }
  }
  if (kind === '-') return (mode) => (mode & want) === want;
  if (kind === '/') return (mode) => want === 0 || (mode & want) !== 0;
  return (mode) => (mode & 0o7777) === want;
}

/** Whether the sprite user may `r`/`w`/`x` a file: the owner's bits if it owns it, else the group's (one of its groups) or others'. */
function mayAccess(st: FsStat, bit: 4 | 2 | 1): boolean {
  const o = ownerOf(st);
  const shift = o.uid === SPRITE_UID ? 6 : spriteUserInGroup(o.gid) ? 3 : 0;
  return (st.mode & (bit << shift)) !== 0;
}

/** One run of find. */
class Finder {
  stdout = '';
  stderr = '';
  /** For each message, the stdout length when it was written and its length (GNU find's error() flushes first). */
  readonly marks: Array<[number, number]> = [];
  status = 0;
  /** Set by `-quit`: nothing more is visited. */
  quit = false;
  private readonly batches = new Map<FindNode, { cmd: string[]; paths: string[]; dir?: string }>();
  private readonly formats = new Map<string, ReturnType<typeof compileFormat>>();
  private readonly refs = new Map<string, FsStat>();
  /** The times of -newerXt's date strings (epoch ms). */
  private readonly times = new Map<string, number>();

  constructor(
    private readonly cmd: FindCommand,
    private readonly ctx: CommandContext,
    private readonly now: number,
  ) {}

  private get fs(): IFileSystem {
    return this.ctx.fs;
  }

  /** Checks what can be checked before the walk: reference files, formats, patterns. */
  async prepare(node: FindNode): Promise<FindError | null> {
    if (node.kind === 'not') return this.prepare(node.expr);
    if (node.kind !== 'test' && node.kind !== 'action') return (await this.prepare(node.left)) ?? this.prepare(node.right);
    const [a] = node.args;
    if (/^-newer[amc]t$/.test(node.name)) {
      const ms = parseDate(a!, this.now);
      if (ms === null) return { stderr: `find: I cannot figure out how to interpret ${localeQuote(this.ctx.env, a!)} as a date or time\n`, exitCode: 1 };
      this.times.set(a!, ms);
    } else if (['-newer', '-anewer', '-cnewer', '-samefile'].includes(node.name) || /^-newer[amc][amc]$/.test(node.name)) {
      try {
        this.refs.set(a!, await (this.cmd.follow === 'never' ? this.fs.lstat : this.fs.stat).call(this.fs, this.fs.resolvePath(this.ctx.cwd, a!)));
      } catch {
        return { stderr: `find: ${localeQuote(this.ctx.env, a!)}: No such file or directory\n`, exitCode: 1 };
      }
    }
    if (node.name === '-printf') {
      const f = compileFormat(a!);
      if (!f.ok) return f.error !== undefined ? { stderr: f.error, exitCode: 1 } : findRefusal(f.what);
      this.say(f.warnings);
      this.formats.set(a!, f);
    }
    if ((node.name === '-type' || node.name === '-xtype') && !/^[fdlbcps](,[fdlbcps])*$/.test(a!)) {
      return { stderr: `find: Unknown argument to ${node.name}: ${a}\n`, exitCode: 1 };
    }
    if (node.name === '-perm' && !permTest(a!)) return { stderr: `find: invalid mode ${localeQuote(this.ctx.env, a!)}\n`, exitCode: 1 };
    if (node.name === '-size' && !/^[+-]?\d+[cwbkMG]?$/.test(a!)) return { stderr: `find: invalid -size type \`${a!.replace(/^[+-]?\d+/, '')}'\n`, exitCode: 1 };
    if (/^-(m|a|c)(time|min)$|^-links$|^-used$|^-inum$/.test(node.name) && !/^[+-]?\d+$/.test(a!)) return { stderr: `find: invalid argument \`${a}' to \`${node.name}'\n`, exitCode: 1 };
    if ((node.name === '-user' || node.name === '-group') && !(a! in (node.name === '-user' ? USER_IDS : GROUP_IDS)) && !/^\d+$/.test(a!)) {
      return { stderr: `find: '${a}' is not the name of a known ${node.name === '-user' ? 'user' : 'group'}\n`, exitCode: 1 };
    }
    return null;
  }

  private async links(v: Visit): Promise<number> {
    return linkCount(v.st, () => this.subdirLinks(v));
  }

  /** A synthetic directory's link count, counted as ext4 keeps it: 2, and one per subdirectory. */
  private async subdirLinks(v: Visit): Promise<number> {
    if (!v.st.isDirectory) return 1;
    let n = 2;
    for (const c of await this.fs.readdir(v.abs).catch(() => [] as string[])) if ((await this.fs.lstat(`${v.abs.replace(/\/+$/, '')}/${c}`).catch(() => null))?.isDirectory) n++;
    return n;
  }

  /** Evaluates `node` on a file; `prune` is set by `-prune`. */
  private async eval(node: FindNode, v: Visit, prune: { on: boolean }): Promise<boolean> {
    switch (node.kind) {
      case 'and':
        return (await this.eval(node.left, v, prune)) && !this.quit && this.eval(node.right, v, prune);
      case 'or':
        return (await this.eval(node.left, v, prune)) || (!this.quit && this.eval(node.right, v, prune));
      case 'comma':
        await this.eval(node.left, v, prune);
        return !this.quit && this.eval(node.right, v, prune);
      case 'not':
        return !(await this.eval(node.expr, v, prune));
      case 'test':
        return this.test(node.name, node.args, v);
      case 'action':
        return this.act(node, v, prune);
    }
  }

  private async test(name: string, args: string[], v: Visit): Promise<boolean> {
    const a = args[0] ?? '';
    const st = v.st;
    const base = v.path === '/' ? '/' : v.path.replace(/\/+$/, '').slice(v.path.replace(/\/+$/, '').lastIndexOf('/') + 1) || v.path;
    const ageDays = (this.now - st.mtime.getTime()) / 86_400_000;
    switch (name) {
      case '-true':
        return true;
      case '-false':
        return false;
      case '-name':
      case '-iname':
        return fnmatch(a, base, { casefold: name === '-iname' });
      case '-path':
      case '-wholename':
      case '-ipath':
      case '-iwholename':
        return fnmatch(a, v.path, { casefold: name.startsWith('-i') });
      case '-regex':
      case '-iregex': {
        const src = args[1] === 'emacs' || args[1] === 'findutils-default' || args[1] === 'posix-basic' ? emacsRegex(a) : a;
        return new RegExp(`^(?:${src})$`, name === '-iregex' ? 'si' : 's').test(v.path);
      }
      case '-lname':
      case '-ilname':
        return v.target !== undefined && fnmatch(a, v.target, { casefold: name === '-ilname' });
      case '-type':
        return a.split(',').includes(typeLetter(st));
      case '-xtype': {
        const t = st.isSymbolicLink ? (v.targetSt ? typeLetter(v.targetSt) : 'l') : this.cmd.follow !== 'never' && v.target === undefined ? typeLetter((await this.fs.lstat(v.abs).catch(() => st))) : typeLetter(st);
        return a.split(',').includes(t);
      }
      case '-size': {
        const unit = UNIT_BYTES[a.slice(-1)] ?? 512;
        const num = a.replace(/[cwbkMG]$/, '');
        return compareNumber(num, Math.ceil(st.size / unit));
      }
      case '-empty':
        return st.isDirectory ? (await this.fs.readdir(v.abs)).length === 0 : !st.isSymbolicLink && st.size === 0;
      case '-newer':
      case '-anewer':
      case '-cnewer':
        // The file's own time named by the test (`-anewer`: its access time) against the reference's mtime.
        return compareTimes(timeOfKind(st, name[1]!), this.refs.get(a)!.mtime) > 0;
      case '-newermt':
      case '-neweramt':
      case '-newerat':
      case '-newerct':
        return compareTimes(timeOfKind(st, name[6]!), fileTime(this.times.get(a)!)) > 0;
      case '-newermm':
      case '-newerma':
      case '-newermc':
      case '-neweram':
      case '-neweraa':
      case '-newerac':
      case '-newercm':
      case '-newerca':
      case '-newercc':
        // `-newerXY`: the file's time X against the reference's time Y.
        return compareTimes(timeOfKind(st, name[6]!), timeOfKind(this.refs.get(a)!, name[7]!)) > 0;
      case '-samefile':
        return this.fs.resolvePath('/', v.abs) === this.fs.resolvePath(this.ctx.cwd, a) || sameFile(this.refs.get(a)!, st);
      case '-inum':
        return compareNumber(a, inodeNumber(st, v.abs));
      case '-mtime':
      case '-ctime':
        return compareNumber(a, Math.floor(ageDays));
      case '-atime':
        return compareNumber(a, Math.floor((this.now - accessTime(st).getTime()) / 86_400_000));
      case '-mmin':
      case '-amin':
      case '-cmin': {
        // +N: more than N minutes ago; -N: less than N; N: within the N-th minute.
        const mins = (this.now - timeOfKind(st, name[1]!).getTime()) / 60_000;
        const n = Number(a.replace(/^[+-]/, ''));
        return a.startsWith('+') ? mins > n : a.startsWith('-') ? mins < n : Math.ceil(mins) === n;
      }
      case '-used':
        return compareNumber(a, 0);
      case '-perm':
        return permTest(a)!(st.mode);
      case '-user':
      case '-uid':
        return ownerOf(st).uid === (USER_IDS[a] ?? Number(a));
      case '-group':
      case '-gid':
        return ownerOf(st).gid === (GROUP_IDS[a] ?? Number(a));
      case '-nouser':
      case '-nogroup':
        return false;
      case '-links':
        return compareNumber(a, await this.links(v));
      case '-executable':
        return mayAccess(st, 1);
      case '-readable':
        return mayAccess(st, 4);
      case '-writable':
        return mayAccess(st, 2);
    }
    return false;
  }

  private async act(node: Extract<FindNode, { kind: 'action' }>, v: Visit, prune: { on: boolean }): Promise<boolean> {
    switch (node.name) {
      case '-print':
        this.stdout += `${v.path}\n`;
        return true;
      case '-print0':
        this.stdout += `${v.path}\0`;
        return true;
      case '-printf': {
        const f = this.formats.get(node.args[0]!)!;
        if (f.ok) this.stdout += formatFile(f.pieces, { ...v, links: /%[-+ #0\d.]*n/.test(node.args[0]!) ? await this.links(v) : 1 });
        return true;
      }
      case '-prune':
        prune.on = true;
        return true;
      case '-quit':
        this.quit = true;
        return true;
      case '-delete':
        return this.remove(v);
      default:
        return this.exec(node, v);
    }
  }

  private async remove(v: Visit): Promise<boolean> {
    if (v.path === '.') return true;
    try {
      if (v.st.isDirectory && (await this.fs.readdir(v.abs)).length > 0) throw Object.assign(new Error('x'), { code: 'ENOTEMPTY' });
      await this.fs.rm(v.abs, { recursive: false, force: false });
      return true;
    } catch (err) {
      const code = (err as { code?: string }).code;
      this.say(`find: cannot delete ${localeQuote(this.ctx.env, v.path)}: ${code === 'ENOTEMPTY' ? 'Directory not empty' : 'No such file or directory'}\n`);
      this.status = 1;
      return false;
    }
  }

  /** `-exec`/`-execdir`: `;` runs the command per file (true when it exits 0), `+` gathers files for one run at the end. */
  private async exec(node: Extract<FindNode, { kind: 'action' }>, v: Visit): Promise<boolean> {
    const dirMode = node.name === '-execdir';
    const words = node.args.slice(0, -1);
    const batch = node.args[node.args.length - 1] === '+';
    const slash = v.abs.lastIndexOf('/');
    const dir = dirMode ? v.abs.slice(0, slash) || '/' : this.ctx.cwd;
    const shown = dirMode ? `./${v.abs.slice(slash + 1)}` : v.path;
    if (batch) {
      const key = this.batches.get(node);
      if (key && key.dir === dir) key.paths.push(shown);
      else {
        if (key) await this.flushBatch(node);
        this.batches.set(node, { cmd: words.slice(0, -1), paths: [shown], dir });
      }
      return true;
    }
    const argv = words.map((w) => w.split('{}').join(shown));
    const r = await this.run(argv, dir);
    return r === 0;
  }

  private async run(argv: string[], cwd: string): Promise<number> {
    if (argv.length === 0) return 1;
    // find's own execvp failure (in the child it forked, which then exits 1): `find: ‘X’: No such file or directory`.
    const failed = (why: string) => `find: ${localeQuote(this.ctx.env, argv[0]!)}: ${why}`;
    const r = (await notOnPath(this.ctx.fs, cwd, argv[0]!, this.ctx.env.get('PATH')))
      ? programNotFound(failed, () => 1)
      : reportExecFailure(await execOnOwnStdin(this.ctx, argv.map(shellQuote).join(' '), { cwd }), argv[0]!, failed, () => 1);
    // The child's output in the order it wrote it.
    let i = 0;
    let j = 0;
    for (const [k, n] of ((r as OrderedResult).outputOrder ?? []).entries()) {
      if (k % 2 === 0) this.stdout += r.stdout.slice(i, (i += n));
      else this.say(r.stderr.slice(j, (j += n)));
    }
    this.stdout += r.stdout.slice(i);
    this.say(r.stderr.slice(j));
    return r.exitCode;
  }

  /** Writes a message to stderr after the output so far. */
  private say(text: string): void {
    if (text === '') return;
    this.marks.push([this.stdout.length, text.length]);
    this.stderr += text;
  }

  private async flushBatch(node: FindNode): Promise<void> {
    const b = this.batches.get(node);
    if (!b) return;
    this.batches.delete(node);
    if ((await this.run([...b.cmd, ...b.paths], b.dir ?? this.ctx.cwd)) !== 0) this.status = 1;
  }

  /** Runs the `+` batches still waiting (at the end of the walk). */
  async finish(): Promise<void> {
    for (const node of [...this.batches.keys()]) await this.flushBatch(node);
  }

  /** Walks one starting point. */
  async walk(start: string): Promise<void> {
    const abs = this.fs.resolvePath(this.ctx.cwd, start);
    const follow = this.cmd.follow !== 'never';
    let st: FsStat;
    try {
      if (start === '') throw Object.assign(new Error('x'), { code: 'ENOENT' });
      st = follow ? await this.fs.stat(abs).catch(() => this.fs.lstat(abs)) : await this.fs.lstat(abs);
      if (start.endsWith('/') && !(await this.fs.stat(abs)).isDirectory) throw Object.assign(new Error('x'), { code: 'ENOTDIR' });
    } catch (err) {
      const code = (err as { code?: string }).code;
      this.say(`find: ${localeQuote(this.ctx.env, start)}: ${code === 'ENOTDIR' ? 'Not a directory' : code === 'ELOOP' ? 'Too many levels of symbolic links' : 'No such file or directory'}\n`);
      this.status = 1;
      return;
    }
    await this.visit(start, abs, st, start, 0, new Map());
  }

  /**
   * Visits one file and, a directory, what it holds. `ancestors` maps the real path of each directory above this one
   * to the path find printed it by: under -L, a directory that is one of them (a symlink to `.` or `..`) is a file
   * system loop, which findutils reports in place of the entry, at any depth, without testing it (fts's FTS_DC).
   */
  private async visit(path: string, abs: string, st: FsStat, start: string, depth: number, ancestors: Map<string, string>): Promise<void> {
    if (this.quit) return;
    const real = this.cmd.follow === 'always' && st.isDirectory ? await this.fs.realpath(abs).catch(() => abs) : abs;
    const loop = ancestors.get(real);
    if (loop !== undefined) {
      this.say(`find: File system loop detected; ${localeQuote(this.ctx.env, path)} is part of the same file system loop as ${localeQuote(this.ctx.env, loop)}.\n`);
      this.status = 1;
      return;
    }
    const v: Visit = { path, abs, st, start, depth, links: 1 };
    if (st.isSymbolicLink) {
      v.target = await this.fs.readlink(abs).catch(() => '');
      v.targetSt = await this.fs.stat(abs).catch(() => undefined);
    }
    const prune = { on: false };
    const matches = depth >= this.cmd.mindepth;
    if (matches && !this.cmd.depthFirst) {
      const hit = await this.eval(this.cmd.expr, v, prune);
      if (hit && !this.cmd.hasAction) this.stdout += `${path}\n`;
    }
    if (st.isDirectory && depth < this.cmd.maxdepth && !prune.on && !this.quit) {
      {
        const inner = new Map(ancestors).set(real, path);
        const names = await this.fs.readdir(abs).catch(() => null);
        if (names === null) {
          this.say(`find: ${localeQuote(this.ctx.env, path)}: Permission denied\n`);
          this.status = 1;
        }
        for (const name of names ?? []) {
          if (this.quit) break;
          const childAbs = `${abs.replace(/\/+$/, '')}/${name}`;
          const childPath = path.endsWith('/') ? `${path}${name}` : `${path}/${name}`;
          let cst: FsStat;
          try {
            cst = this.cmd.follow === 'always' ? await this.fs.stat(childAbs).catch(() => this.fs.lstat(childAbs)) : await this.fs.lstat(childAbs);
          } catch (err) {
            // A directory the user may read but not search (r without x): its names and types are known, as
            // findutils takes them from readdir, and a subdirectory is then reported where find tries to enter it.
            if ((err as { code?: string }).code !== 'EACCES') continue;
            const kind = (await this.fs.readdirWithFileTypes?.(abs).catch(() => []))?.find((k) => k.name === name);
            cst = { isFile: kind?.isDirectory !== true, isDirectory: kind?.isDirectory === true, isSymbolicLink: false, mode: 0, size: 0, mtime: new Date(0) };
          }
          await this.visit(childPath, childAbs, cst, start, depth + 1, inner);
        }
      }
    }
    if (matches && this.cmd.depthFirst && !this.quit) {
      const hit = await this.eval(this.cmd.expr, v, prune);
      if (hit && !this.cmd.hasAction) this.stdout += `${path}\n`;
    }
  }
}

/**
 * The time of `st` a test letter names: `a` its access time; `m`, `c` (the change time is not kept) and any other its
 * modification time.
 */
function timeOfKind(st: FsStat, letter: string): Date {
  return letter === 'a' ? accessTime(st) : st.mtime;
}

/** `find` for just-bash's `customCommands`; `now` (epoch ms) is the time `-mtime`/`-mmin` measure ages from. */
export function findCommand(now: () => number): CustomCommand {
  return defineCommand('find', async (args, ctx) => {
    const cmd = parseFind(args);
    if (!('starts' in cmd)) return { stdout: '', stderr: cmd.stderr, exitCode: cmd.exitCode };
    const finder = new Finder(cmd, ctx, now());
    const bad = await finder.prepare(cmd.expr);
    if (bad) return { stdout: '', stderr: bad.stderr, exitCode: bad.exitCode };
    for (const start of cmd.starts) {
      await finder.walk(start);
      if (finder.quit) break;
    }
    await finder.finish();
    return { stdout: finder.stdout, stderr: finder.stderr, exitCode: finder.status, outputOrder: orderOf(finder.marks, 'before-errors') };
  });
}
