/**
 * `tar --transform=EXPR` / `--xform` over the shell engine's tar: sed `s` expressions (`;`-separated, applied in
 * order; flags `g`, `i`, `x`, a number, and the scope letters) rewrite the member names (and link targets) stored
 * on create and the names files get on extract; a listing shows the stored names, as GNU's does without
 * `--show-transformed-names`. The archive is rewritten (tar-archive.ts withNames) around the plain command, which
 * runs through the engine's own shell; a name transformed to nothing is skipped on extract.
 * @see https://www.gnu.org/software/tar/manual/html_node/transform.html
 */
import { bytesOutput, latin1FromBytes, stdoutAsBytes, unsafeBytesFromLatin1, type CommandContext, type ExecResult } from 'just-bash';
import { compileGrep } from './grep-regex.ts';
import { matchAllLongest } from './posix-match.ts';
import { isGzipped, tarBytes, tarMembers, withNames } from './tar-archive.ts';
import { tarPlan } from './tar-plan.ts';
import { tarOnCopy, tarThroughShell } from './tar-zstd.ts';

type Rename = (name: string) => string;

/** One `s` expression as a function, or GNU's complaint about it. */
function substitution(expr: string): { apply: Rename; rest: string } | { error: string } {
  const d = expr[1];
  if (expr[0] !== 's' || d === undefined) return { error: `tar: Invalid transform expression\n` };
  const parts: string[] = [];
  let cur = '';
  let i = 2;
  for (; i < expr.length && parts.length < 2; i++) {
    const c = expr[i]!;
    if (c === '\\' && i + 1 < expr.length) {
      cur += expr[i + 1] === d ? d : c + expr[i + 1];
      i++;
    } else if (c === d) {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  if (parts.length < 2) return { error: `tar: Invalid transform expression\n` };
  const semi = expr.indexOf(';', i);
  const flags = semi < 0 ? expr.slice(i) : expr.slice(i, semi);
  const rest = semi < 0 ? '' : expr.slice(semi + 1);
  const global = flags.includes('g');
  const nth = Number(/\d+/.exec(flags)?.[0] ?? 0);
  const compiled = compileGrep([parts[0]!], flags.includes('x') ? 'extended' : 'basic', { ignoreCase: flags.includes('i'), word: false, line: false });
  if ('error' in compiled) return { error: `tar: ${compiled.error.replace(/^grep: /, '')}` };
  const re = new RegExp(compiled.regex.source, `${compiled.regex.flags.replace('g', '')}g`);
  const repl = parts[1]!;
  const expand = (m: RegExpExecArray) =>
    repl.replace(/\\([0-9\\&])|&/g, (all, e: string | undefined) => (e === undefined ? m[0] : e === '&' || e === '\\' ? e : (m[Number(e)] ?? '')));
  const apply: Rename = (name) => {
    let out = '';
    let from = 0;
    let k = 0;
    for (const m of matchAllLongest(re, name)) {
      k++;
      const hit = nth ? (global ? k >= nth : k === nth) : global || k === 1;
      if (hit) {
        out += name.slice(from, m.index) + expand(m);
        from = m.index + m[0].length;
      }
      if (!global && hit) break;
    }
    return out + name.slice(from);
  };
  return { apply, rest };
}

/** The name rewriting of every `--transform`/`--xform` value, in order, or GNU's complaint. */
function renamer(values: string[]): Rename | { error: string } {
  const steps: Rename[] = [];
  for (let v of values) {
    while (v !== '') {
      const s = substitution(v);
      if ('error' in s) return s;
      steps.push(s.apply);
      v = s.rest;
    }
  }
  return (name) => steps.reduce((n, f) => f(n), name);
}

/**
 * The result of `tar args` when they hold `--transform`/`--xform` (undefined otherwise): `args` without them run
 * through the shell on an archive whose names are rewritten.
 */
export async function tarWithTransform(args: string[], ctx: CommandContext): Promise<ExecResult | undefined> {
  const values: string[] = [];
  const plain: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const m = /^--(?:transform|xform)(?:=(.*))?$/s.exec(args[i]!);
    if (!m) plain.push(args[i]!);
    else values.push(m[1] ?? args[++i] ?? '');
  }
  if (values.length === 0) return undefined;
  const rename = renamer(values);
  if (typeof rename !== 'function') return { stdout: '', stderr: `${rename.error}tar: Error is not recoverable: exiting now\n`, exitCode: 2 };
  const p = tarPlan(plain);
  const runTar = tarThroughShell(ctx);
  const toStdio = p.archive === undefined || p.archive === '-';
  if (p.compressed && !p.gzip) return { stdout: '', stderr: `tar: --transform with this compression is not available in the shell engine; run spritzer with --exec sandbox\n`, exitCode: 2 };
  // A listing shows the names as stored; comparing is not renamed either.
  if (p.op === 't' || p.op === 'd') return runTar(plain, latin1FromBytes(ctx.stdin));
  if (p.op === 'c') {
    const r = await runTar(plain, '');
    if (toStdio) return { stderr: r.stderr, exitCode: r.exitCode, ...bytesOutput(unsafeBytesFromLatin1(withNames(latin1FromBytes(stdoutAsBytes(r)), rename) ?? '')) };
    const path = ctx.fs.resolvePath(ctx.cwd, p.archive!);
    const written = await ctx.fs.readFileBuffer(path).then((b) => Buffer.from(b).toString('latin1'), () => undefined);
    const renamed = written === undefined ? undefined : withNames(written, rename);
    if (renamed !== undefined) await ctx.fs.writeFile(path, Buffer.from(renamed, 'latin1'));
    return r;
  }
  if (p.op !== 'x') return { stdout: '', stderr: `tar: --transform with this operation is not available in the shell engine; run spritzer with --exec sandbox\n`, exitCode: 2 };
  const raw = toStdio ? latin1FromBytes(ctx.stdin) : await ctx.fs.readFileBuffer(ctx.fs.resolvePath(ctx.cwd, p.archive!)).then((b) => Buffer.from(b).toString('latin1'), () => undefined);
  const renamed = raw === undefined ? undefined : withNames(raw, rename);
  if (renamed === undefined) return runTar(plain, latin1FromBytes(ctx.stdin));
  // -v names the members as stored, not as renamed: the plain run listed the renamed archive.
  const stored = (r: ExecResult): ExecResult => {
    if (!p.verbose || r.exitCode !== 0) return r;
    const b = tarBytes(raw ?? '');
    const names = b === undefined ? [] : tarMembers(b).map((m) => m.name).filter((n) => rename(n.replace(/\/$/, '')) !== '');
    return { ...r, stdout: names.map((n) => `${n}\n`).join('') };
  };
  if (toStdio) return stored(await runTar(plain, renamed));
  return stored(await tarOnCopy(ctx, plain, Buffer.from(renamed, 'latin1'), isGzipped(renamed) ? '.tar.gz' : '.tar', p.archive!));
}
