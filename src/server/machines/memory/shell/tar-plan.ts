/**
 * A GNU tar command line read for what the `tar` wrapper (archive-commands.ts) needs to know: the operation, the
 * archive, the compressor, the `-C` directories and the member operands. Old-style clusters (`tar czf a.tgz src`),
 * dashed clusters (`-xzf a.tgz`, `-fa.tar`), long options with `=` or a following word.
 * @see https://www.gnu.org/software/tar/manual/html_node/Styles.html
 */

export interface TarPlan {
  /** `c`, `x`, `t`, `d`, `r`, `u`, `A`, `delete`, or undefined when none was given. */
  op: string | undefined;
  archive: string | undefined;
  /** Whether a compressor runs as tar's child (`-z`, `-j`, `-J`, `--zstd`, `-a`…). */
  compressed: boolean;
  /** Whether that compressor is gzip (`-z`, `--gzip`). */
  gzip: boolean;
  /** Whether it is bzip2 (`-j`, `--bzip2`) or xz (`-J`, `--xz`). */
  bzip2: boolean;
  xz: boolean;
  /** `-a`/`--auto-compress`: the compressor follows the archive's suffix. */
  auto: boolean;
  /** Whether it is zstd (`--zstd`, `-I zstd`/`--use-compress-program=zstd…`, `-a` with a `.zst`/`.tzst` archive). */
  zstd: boolean;
  /** `--wildcards`: member operands are globs. */
  wildcards: boolean;
  chdirs: string[];
  members: string[];
  verbose: boolean;
  dereference: boolean;
  preserve: boolean;
  toStdout: boolean;
  /** `-k`/`--keep-old-files`: an existing file is an error (not `--skip-old-files`, which skips quietly). */
  keepOld: boolean;
  /**
   * The members and GNU's positional options (`-C`, `--exclude`…: they act on the members after them), in
   * command-line order; `words` are the indexes in `args` an option took, `cluster` when it sat in a letter cluster.
   */
  order: TarItem[];
}

/** A member operand, or a positional option as GNU names it (`-C`, `--exclude`, `--no-recursion`) with its value. */
export type TarItem = { member: string } | { option: string; value?: string; words: number[]; cluster: boolean };

/** Long options GNU tar treats as positional (tar.c: they affect only the file names after them). */
const POSITIONAL = new Set(['--directory', '--exclude', '--exclude-from', '--exclude-vcs', '--exclude-vcs-ignores', '--exclude-backups', '--exclude-caches', '--exclude-caches-under', '--exclude-caches-all', '--exclude-tag', '--exclude-tag-under', '--exclude-tag-all', '--anchored', '--no-anchored', '--ignore-case', '--no-ignore-case', '--wildcards', '--no-wildcards', '--wildcards-match-slash', '--no-wildcards-match-slash', '--recursion', '--no-recursion', '--null', '--no-null', '--unquote', '--no-unquote', '--verbatim-files-from', '--no-verbatim-files-from']);

/** Short letters that take a value. */
const VALUED = new Set(['f', 'C', 'T', 'X', 'b', 'K', 'N', 'g', 'V', 'L', 'F', 'H', 'I']);
const OPS: Record<string, string> = { c: 'c', x: 'x', t: 't', d: 'd', r: 'r', u: 'u', A: 'A', '--create': 'c', '--extract': 'x', '--get': 'x', '--list': 't', '--diff': 'd', '--compare': 'd', '--append': 'r', '--update': 'u', '--concatenate': 'A', '--catenate': 'A', '--delete': 'delete' };
const COMPRESS = new Set(['z', 'j', 'J', 'Z', 'a', '--gzip', '--gunzip', '--ungzip', '--bzip2', '--xz', '--lzma', '--lzip', '--lzop', '--zstd', '--compress', '--uncompress', '--auto-compress']);
/** Long options whose value may be the next word. */
const LONG_VALUED = new Set(['--file', '--directory', '--files-from', '--exclude-from', '--owner', '--group', '--mode', '--format', '--transform', '--xform', '--use-compress-program', '--label', '--newer', '--after-date', '--strip-components', '--exclude', '--blocking-factor', '--to-command', '--mtime', '--suffix', '--index-file', '--exclude-tag', '--exclude-tag-under', '--exclude-tag-all']);

/** What `args` ask of tar. */
export function tarPlan(args: string[]): TarPlan {
  const p: TarPlan = { op: undefined, archive: undefined, compressed: false, gzip: false, bzip2: false, xz: false, auto: false, zstd: false, wildcards: false, chdirs: [], members: [], verbose: false, dereference: false, preserve: false, toStdout: false, keepOld: false, order: [] };
  let auto = false;
  const usesProgram = (program: string | undefined) => {
    p.compressed = true;
    p.zstd ||= /^(?:\S*\/)?(?:zstd|unzstd|zstdmt|pzstd)(?:\s|$)/.test(program ?? '');
  };
  const letter = (c: string, value: () => string | undefined, words: () => number[], cluster: boolean) => {
    if (c === 'C' || c === 'X') {
      const v = value();
      if (c === 'C') p.chdirs.push(v ?? '');
      p.order.push({ option: c === 'C' ? '-C' : '--exclude-from', value: v, words: words(), cluster });
      return;
    }
    if (OPS[c]) p.op = OPS[c];
    else if (COMPRESS.has(c)) {
      p.compressed = true;
      p.gzip ||= c === 'z';
      p.bzip2 ||= c === 'j';
      p.xz ||= c === 'J';
      auto ||= c === 'a';
    } else if (c === 'v') p.verbose = true;
    else if (c === 'h') p.dereference = true;
    else if (c === 'p') p.preserve = true;
    else if (c === 'O') p.toStdout = true;
    else if (c === 'k') p.keepOld = true;
    else if (c === 'f') p.archive = value();
    else if (c === 'I') usesProgram(value());
    else if (VALUED.has(c)) value();
  };
  let i = 0;
  // Old style: a first word without a dash is a cluster whose valued letters take the next words in turn.
  if (args[0] !== undefined && !args[0].startsWith('-')) {
    let next = 1;
    for (const c of args[0]) letter(c, () => args[next++], () => [next - 1], true);
    i = next;
  }
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      p.members.push(...args.slice(i + 1));
      p.order.push(...args.slice(i + 1).map((member) => ({ member })));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq);
      const at = i;
      const value = () => (eq >= 0 ? a.slice(eq + 1) : LONG_VALUED.has(name) ? args[++i] : undefined);
      if (POSITIONAL.has(name)) {
        const v = LONG_VALUED.has(name) ? value() : undefined;
        if (name === '--directory') p.chdirs.push(v ?? '');
        if (name === '--wildcards') p.wildcards = true;
        p.order.push({ option: name === '--directory' ? '-C' : name, value: v, words: i === at ? [at] : [at, i], cluster: false });
      } else if (OPS[name]) p.op = OPS[name];
      else if (COMPRESS.has(name)) {
        p.compressed = true;
        p.gzip ||= name === '--gzip' || name === '--gunzip' || name === '--ungzip';
        p.bzip2 ||= name === '--bzip2';
        p.xz ||= name === '--xz';
        p.zstd ||= name === '--zstd';
        auto ||= name === '--auto-compress';
      } else if (name === '--verbose') p.verbose = true;
      else if (name === '--dereference') p.dereference = true;
      else if (name === '--preserve-permissions' || name === '--same-permissions') p.preserve = true;
      else if (name === '--to-stdout') p.toStdout = true;
      else if (name === '--keep-old-files') p.keepOld = true;
      else if (name === '--file') p.archive = value();
      else if (name === '--use-compress-program') usesProgram(value());
      else if (LONG_VALUED.has(name) && eq < 0) i++;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      const at = i;
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (VALUED.has(c)) {
          const rest = a.slice(j + 1);
          letter(c, () => (rest !== '' ? rest : args[++i]), () => (i === at ? [at] : [at, i]), j > 1);
          break;
        }
        letter(c, () => undefined, () => [at], j > 1);
      }
      continue;
    }
    p.members.push(a);
    p.order.push({ member: a });
  }
  if (auto && /\.(?:zst|tzst)$/.test(p.archive ?? '')) p.zstd = true;
  p.auto = auto;
  return p;
}
