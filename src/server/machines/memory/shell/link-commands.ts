/**
 * GNU `ln`, `link`, `unlink` and `readlink` over the sprite's filesystem: where a link lands (into a directory
 * operand, which a symlink to a directory counts as unless `-n`/`-T`), `-f`, `-i` and `-b` over an existing name,
 * `-r` targets relative to the link, `-t`, `-v`; `readlink -f/-e/-m` canonical paths and `-n`/`-z`.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/ln-invocation.html, readlink-invocation.html
 */
import { defineCommand, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';
import { strerror } from './errno-text.ts';
import { basenameOf, dirnameOf } from './path-names.ts';
import { OrderedOutput } from './output-order.ts';
import { canonical, joined } from './canonical-path.ts';
import { AnswerLines } from './inherited-stdin.ts';
import { backupSuffix, simpleSuffix, versionControl, type PerFileOptions } from './copy-options.ts';

const MISSING_OK = { mustExist: false, missingOk: true, noLinks: false };

const usage = (cmd: string, what: string): ExecResult => ({ stdout: '', stderr: `${cmd}: ${what}\nTry '${cmd} --help' for more information.\n`, exitCode: 1 });
const safe = async <T>(p: Promise<T>): Promise<T | null> => p.catch(() => null);

/** `to` relative to the directory `from` (both absolute, normalised). */
function relative(from: string, to: string): string {
  const a = from.split('/').filter(Boolean);
  const b = to.split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/') || '.';
}


interface LnOptions {
  symbolic: boolean;
  force: boolean;
  noDeref: boolean;
  noTarget: boolean;
  relative: boolean;
  backup: boolean;
  suffix: string;
  verbose: boolean;
  /** `-i`: ask before replacing a name (`-f` and `-i` cancel each other; the last given wins). */
  interactive: boolean;
  /** `-L`: a hard link to a symlink links the file it leads to (GNU's default, -P, links the symlink itself). */
  logical: boolean;
  dir?: string;
}

async function ln(args: string[], fs: IFileSystem, cwd: string, stdin: () => string, env: Record<string, string | undefined>): Promise<ExecResult> {
  const o: LnOptions = { symbolic: false, force: false, noDeref: false, noTarget: false, relative: false, backup: false, suffix: '~', verbose: false, interactive: false, logical: false };
  // -b/--backup[=CONTROL]/-S: the control word (else $VERSION_CONTROL) and the suffix (else $SIMPLE_BACKUP_SUFFIX).
  let controlWord: string | undefined;
  let suffix: string | undefined;
  // An answer is one line of stdin; yes when it starts with y or Y (none left: no).
  const answers = new AnswerLines(stdin);
  const operands: string[] = [];
  const long: Record<string, keyof LnOptions> = { '--symbolic': 'symbolic', '--force': 'force', '--interactive': 'interactive', '--no-dereference': 'noDeref', '--no-target-directory': 'noTarget', '--relative': 'relative', '--verbose': 'verbose', '--backup': 'backup' };
  const short: Record<string, keyof LnOptions> = { s: 'symbolic', f: 'force', i: 'interactive', n: 'noDeref', T: 'noTarget', r: 'relative', v: 'verbose', b: 'backup' };
  // ln.c: -f clears -i and -i clears -f.
  const set = (key: keyof LnOptions) => {
    (o[key] as boolean) = true;
    if (key === 'force') o.interactive = false;
    if (key === 'interactive') o.force = false;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (long[a]) set(long[a]!);
    else if (a.startsWith('--backup=')) (o.backup = true), (controlWord = a.slice(9));
    else if (a.startsWith('--suffix=')) (suffix = a.slice(9)), (o.backup = true);
    else if (a.startsWith('--target-directory=')) o.dir = a.slice(19);
    else if (a === '--logical' || a === '--physical') o.logical = a === '--logical';
    else if (a.startsWith('--')) return usage('ln', `unrecognized option '${a}'`);
    else if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === 't' || c === 'S') {
          const v = a.slice(j + 1) || args[++i];
          if (v === undefined) return usage('ln', `option requires an argument -- '${c}'`);
          if (c === 't') o.dir = v;
          else (suffix = v), (o.backup = true);
          break;
        }
        if (c === 'L' || c === 'P') {
          o.logical = c === 'L';
          continue;
        }
        if (!short[c]) return usage('ln', `invalid option -- '${c}'`);
        set(short[c]!);
      }
    } else operands.push(a);
  }
  let control: PerFileOptions['control'] = 'existing';
  if (o.backup) {
    const vc = versionControl(controlWord ?? env.VERSION_CONTROL, controlWord !== undefined ? 'backup type' : '$VERSION_CONTROL', env);
    if ('error' in vc) return { stdout: '', stderr: `ln: ${vc.error}Try 'ln --help' for more information.\n`, exitCode: 1 };
    if (vc.control === 'none') o.backup = false;
    else control = vc.control;
    o.suffix = simpleSuffix(suffix, env);
  }
  if (operands.length === 0) return usage('ln', 'missing file operand');
  let targets: string[];
  let intoDir: string | undefined = o.dir;
  let dest: string | undefined;
  if (intoDir === undefined) {
    if (operands.length === 1) intoDir = '.';
    else {
      const last = operands[operands.length - 1]!;
      const lst = await safe(fs.lstat(fs.resolvePath(cwd, last)));
      const st = await safe(fs.stat(fs.resolvePath(cwd, last)));
      const isDir = !o.noTarget && st?.isDirectory && !(o.noDeref && lst?.isSymbolicLink);
      if (isDir) intoDir = last;
      else if (operands.length > 2) {
        return o.noTarget ? usage('ln', `extra operand '${operands[2]}'`) : { stdout: '', stderr: `ln: target '${last}' is not a directory\n`, exitCode: 1 };
      } else dest = last;
    }
    targets = dest === undefined && operands.length > 1 ? operands.slice(0, -1) : dest === undefined ? operands : [operands[0]!];
  } else targets = operands;
  // GNU ln reports through error(), which flushes what -v printed so far: program order.
  const text = new OrderedOutput();
  let failed = false;
  for (const target of targets) {
    const name = dest ?? (intoDir === '.' && operands.length === 1 ? basenameOf(target) : `${intoDir!.replace(/\/+$/, '')}/${basenameOf(target)}`);
    // The new name as written: `ln -s x l/` asks symlink(2) for `l/`, which it cannot make (ENOENT).
    const resolved = fs.resolvePath(cwd, name);
    const linkAbs = /[^/]\/+$/.test(name) && !resolved.endsWith('/') ? `${resolved}/` : resolved;
    const kind = o.symbolic ? 'symbolic link' : 'hard link';
    try {
      if (!o.symbolic) {
        const st = await safe(fs.stat(fs.resolvePath(cwd, target)));
        if (!st) throw Object.assign(new Error('x'), { code: 'ENOENT', access: true });
        if (st.isDirectory) {
          failed = true;
          text.err(`ln: ${target}: hard link not allowed for directory\n`);
          continue;
        }
      }
      const existing = await safe(fs.lstat(linkAbs));
      let backedUp = '';
      if (existing) {
        if (o.interactive) {
          // GNU ln asks on stderr (no flush of -v's output) and takes a no as done: status 0.
          text.prompt(`ln: replace '${name}'? `);
          if (!/^[yY]/.test(answers.shift() ?? '')) continue;
        } else if (!o.force && !o.backup) throw Object.assign(new Error('x'), { code: 'EEXIST' });
        if (existing.isDirectory) {
          failed = true;
          text.err(`ln: ${name}: cannot overwrite directory\n`);
          continue;
        }
        if (o.backup) {
          const ext = await backupSuffix(fs, linkAbs, { control, suffix: o.suffix });
          await fs.mv(linkAbs, `${linkAbs}${ext}`);
          backedUp = `'${name}${ext}' ~ `;
        } else await fs.rm(linkAbs);
      }
      let content = target;
      if (o.symbolic && o.relative) content = relative(await canonical(fs, dirnameOf(linkAbs), MISSING_OK), await canonical(fs, fs.resolvePath(cwd, target), MISSING_OK));
      if (o.symbolic) await fs.symlink(content, linkAbs);
      else await fs.link(o.logical ? await canonical(fs, fs.resolvePath(cwd, target), MISSING_OK) : fs.resolvePath(cwd, target), linkAbs);
      if (o.verbose) text.out(`${backedUp}'${name}' ${o.symbolic ? '->' : '=>'} '${content}'\n`);
    } catch (err) {
      failed = true;
      if ((err as { access?: boolean }).access) text.err(`ln: failed to access '${target}': No such file or directory\n`);
      else {
        // GNU ln (ln.c do_link): a hard link that failed for another reason than the name (EEXIST, ENOSPC, EDQUOT,
        // EROFS) names its source too: `failed to create hard link 'dst' => 'src'`.
        const code = (err as { code?: string }).code ?? '';
        const source = !o.symbolic && !['EEXIST', 'ENOSPC', 'EDQUOT', 'EROFS'].includes(code) ? ` => '${target}'` : '';
        text.err(`ln: failed to create ${kind} '${name}'${source}: ${strerror(err)}\n`);
      }
    }
  }
  return text.result(failed ? 1 : 0, 'before-errors');
}

async function readlink(args: string[], fs: IFileSystem, cwd: string): Promise<ExecResult> {
  let mode: 'raw' | 'f' | 'e' | 'm' = 'raw';
  let newline = true;
  let zero = false;
  let verbose = false;
  const operands: string[] = [];
  for (const a of args) {
    if (a === '--canonicalize') mode = 'f';
    else if (a === '--canonicalize-existing') mode = 'e';
    else if (a === '--canonicalize-missing') mode = 'm';
    else if (a === '--no-newline') newline = false;
    else if (a === '--zero') zero = true;
    else if (a === '--verbose') verbose = true;
    else if (a === '--quiet' || a === '--silent') verbose = false;
    else if (a.startsWith('--')) return usage('readlink', `unrecognized option '${a}'`);
    else if (a.startsWith('-') && a.length > 1) {
      for (const c of a.slice(1)) {
        if (c === 'f' || c === 'e' || c === 'm') mode = c;
        else if (c === 'n') newline = false;
        else if (c === 'z') zero = true;
        else if (c === 'v') verbose = true;
        else if (c === 'q' || c === 's') verbose = false;
        else return usage('readlink', `invalid option -- '${c}'`);
      }
    } else operands.push(a);
  }
  if (operands.length === 0) return usage('readlink', 'missing operand');
  const end = zero ? '\0' : operands.length > 1 || newline ? '\n' : '';
  // GNU readlink reports through error(), which flushes the lines printed so far: program order.
  const text = new OrderedOutput();
  let failed = false;
  for (const name of operands) {
    const abs = fs.resolvePath(cwd, name);
    // -f: every component but the last must exist, -e all, -m none; resolved one by one (`nope/../x` fails).
    const out = mode === 'raw' ? await safe(fs.readlink(abs)) : await safe(canonical(fs, joined(cwd, name), { mustExist: mode === 'e', missingOk: mode === 'm', noLinks: false }));
    if (out === null) {
      failed = true;
      if (verbose) text.err(`readlink: ${name}: ${mode === 'raw' && (await safe(fs.lstat(abs))) ? 'Invalid argument' : 'No such file or directory'}\n`);
      continue;
    }
    text.out(out + end);
  }
  return text.result(failed ? 1 : 0, 'before-errors');
}

/** `ln`, `link`, `unlink` and `readlink` for just-bash's `customCommands`. */
export function linkCommands(): CustomCommand[] {
  return [
    defineCommand('ln', (args, ctx) => ln(args, ctx.fs, ctx.cwd, () => String(ctx.stdin ?? ''), ctx.exportedEnv ?? Object.fromEntries(ctx.env))),
    defineCommand('readlink', (args, ctx) => readlink(args, ctx.fs, ctx.cwd)),
    defineCommand('link', async (args, ctx) => {
      const ops = args[0] === '--' ? args.slice(1) : args;
      if (ops.length < 2) return usage('link', ops.length === 0 ? 'missing operand' : `missing operand after '${ops[0]}'`);
      if (ops.length > 2) return usage('link', `extra operand '${ops[2]}'`);
      const r = await ln([ops[0]!, ops[1]!], ctx.fs, ctx.cwd, () => '', {});
      return r.exitCode === 0 ? r : { ...r, stderr: `link: cannot create link '${ops[1]}' to '${ops[0]}': ${r.stderr.split(': ').pop()}` };
    }),
    defineCommand('unlink', async (args, ctx) => {
      const ops = args[0] === '--' ? args.slice(1) : args;
      if (ops.length !== 1) return usage('unlink', ops.length === 0 ? 'missing operand' : `extra operand '${ops[1]}'`);
      const abs = ctx.fs.resolvePath(ctx.cwd, ops[0]!);
      try {
        const st = await ctx.fs.lstat(abs);
        if (st.isDirectory) throw Object.assign(new Error('x'), { code: 'EISDIR' });
        await ctx.fs.rm(abs);
        return { stdout: '', stderr: '', exitCode: 0 };
      } catch (err) {
        return { stdout: '', stderr: `unlink: cannot unlink '${ops[0]}': ${strerror(err)}\n`, exitCode: 1 };
      }
    }),
  ];
}
