/**
 * GNU `ls`'s command line, read as getopt_long reads it (options anywhere before `--`, clustered short options,
 * unambiguous prefixes of long ones), into the settings ls-command.ts lists with. Options GNU has that the shell
 * engine cannot honour (`-i`, `-Z`, `--color=always`, `--author`…) come back as a loud refusal.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/ls-invocation.html
 */
import { QUOTING_STYLES, type QuotingStyle } from './ls-quote.ts';

/** What one `ls` command line asks for. */
export interface LsOptions {
  /** Which directory entries show: `default` hides dot files, `almost` (-A) shows them but `.` and `..`, `all` (-a) all. */
  show: 'default' | 'almost' | 'all';
  ignoreBackups: boolean;
  /** `-I`/`--ignore` patterns (always applied) and `--hide` patterns (dropped by -a/-A). */
  ignore: string[];
  hide: string[];
  directory: boolean;
  recursive: boolean;
  format: 'one' | 'long' | 'columns' | 'across' | 'commas';
  /** Long format columns: the owner (not with -g), the group (not with -o/-G), numbers for names (-n). */
  owner: boolean;
  group: boolean;
  numeric: boolean;
  /** Human-readable sizes: 0 (off), 1024 (-h) or 1000 (--si). */
  human: 0 | 1000 | 1024;
  /** `--block-size=SIZE`: sizes and blocks in units of `unit` bytes, rounded up, `suffix` after each figure. */
  blockSize: BlockSize | undefined;
  blocks: boolean;
  /** `-i`: each file's inode number first. */
  inode: boolean;
  sort: 'name' | 'size' | 'time' | 'extension' | 'version' | 'none' | 'width';
  /** Whether an option chose the sort (`-t -S -U -X -v -f --sort`): `-u` alone then leaves it. */
  sortGiven: boolean;
  /** The time shown with -l and sorted by with -t: the modification time, or the access time (`-u`, `--time=atime`). */
  time: 'mtime' | 'atime';
  reverse: boolean;
  groupDirs: boolean;
  indicator: 'none' | 'slash' | 'file-type' | 'classify';
  /** Symlinks followed: on the command line to a directory (the default), all operands (-H), everywhere (-L). */
  deref: 'never' | 'dir-args' | 'args' | 'always' | null;
  quoting: QuotingStyle;
  hideControl: boolean;
  width: number;
  tabsize: number;
  /** A named style, or `+FORMAT` (date's format; `+OLD\nRECENT` gives files of the last six months their own). */
  timeStyle: 'locale' | 'full-iso' | 'long-iso' | 'iso' | `+${string}`;
  eol: string;
  operands: string[];
}

/** A `--block-size` unit: its bytes, and the suffix printed after each figure (`K` for `K`, none for `1K`). */
export interface BlockSize { unit: number; suffix: string }

/**
 * GNU's `--block-size=SIZE` (coreutils' human_options): an optional integer and an optional unit letter (K M G T P E Z
 * Y), 1024-based alone or with `iB`, 1000-based with `B`; a figure is followed by the unit only when SIZE has no
 * number. `human-readable` and `si` are -h and --si.
 */
function blockSize(o: LsOptions, v: string): LsRejection | void {
  if (v === 'human-readable' || v === 'si') {
    o.human = v === 'si' ? 1000 : 1024;
    o.blockSize = undefined;
    return;
  }
  const m = /^(\d*)([KMGTPEZY]?)(iB|B)?$/.exec(v);
  const count = m?.[1] ? Number(m[1]) : 1;
  if (!m || (m[1] === '' && m[2] === '') || (m[3] && !m[2]) || count === 0) return { stderr: `ls: invalid --block-size argument '${v}'\n` };
  const power = m[2] ? 'KMGTPEZY'.indexOf(m[2]) + 1 : 0;
  const unit = count * (m[3] === 'B' ? 1000 : 1024) ** power;
  o.human = 0;
  o.blockSize = { unit, suffix: m[1] === '' ? `${m[2] === 'K' && m[3] === 'B' ? 'k' : m[2]}${m[3] ?? ''}` : '' };
}

/** A command line ls rejects (GNU's words, exit 2) or the shell engine refuses (loud, exit 2). */
export interface LsRejection {
  stderr: string;
}

const TRY = "Try 'ls --help' for more information.\n";
const HINT = 'run spritzer with --exec sandbox';
const refuse = (what: string): LsRejection => ({ stderr: `ls: ${what} is not available in the shell engine; ${HINT}\n` });

/** Long options: the name, whether it takes an argument (`optional` for `--color[=WHEN]`), and its effect. */
type Apply = (o: LsOptions, value: string | undefined) => LsRejection | void;
const LONG: Record<string, { arg: 'none' | 'required' | 'optional'; apply: Apply }> = {
  all: { arg: 'none', apply: (o) => void (o.show = 'all') },
  'almost-all': { arg: 'none', apply: (o) => void (o.show = 'almost') },
  author: { arg: 'none', apply: () => refuse('option --author') },
  escape: { arg: 'none', apply: (o) => void (o.quoting = 'escape') },
  'block-size': { arg: 'required', apply: (o, v) => blockSize(o, v!) },
  'ignore-backups': { arg: 'none', apply: (o) => void (o.ignoreBackups = true) },
  color: { arg: 'optional', apply: (_, v) => (v === undefined || /^(always|yes|force)$/.test(v) ? refuse('coloured output (--color)') : choice('--color', v, COLOR_WHEN)) },
  colour: { arg: 'optional', apply: (o, v) => LONG.color!.apply(o, v) },
  directory: { arg: 'none', apply: (o) => void (o.directory = true) },
  dired: { arg: 'none', apply: () => refuse('option --dired') },
  classify: { arg: 'optional', apply: (o, v) => classify(o, v) },
  'file-type': { arg: 'none', apply: (o) => void (o.indicator = 'file-type') },
  format: { arg: 'required', apply: (o, v) => format(o, v!) },
  'full-time': { arg: 'none', apply: (o) => ((o.format = 'long'), void (o.timeStyle = 'full-iso')) },
  'group-directories-first': { arg: 'none', apply: (o) => void (o.groupDirs = true) },
  'no-group': { arg: 'none', apply: (o) => void (o.group = false) },
  'human-readable': { arg: 'none', apply: (o) => ((o.blockSize = undefined), void (o.human = 1024)) },
  si: { arg: 'none', apply: (o) => ((o.blockSize = undefined), void (o.human = 1000)) },
  'dereference-command-line': { arg: 'none', apply: (o) => void (o.deref = 'args') },
  'dereference-command-line-symlink-to-dir': { arg: 'none', apply: (o) => void (o.deref = 'dir-args') },
  hide: { arg: 'required', apply: (o, v) => void o.hide.push(v!) },
  hyperlink: { arg: 'optional', apply: (_, v) => (v === undefined || /^(always|yes|force)$/.test(v) ? refuse('option --hyperlink') : choice('--hyperlink', v, COLOR_WHEN)) },
  'indicator-style': { arg: 'required', apply: (o, v) => indicatorStyle(o, v!) },
  inode: { arg: 'none', apply: (o) => void (o.inode = true) },
  ignore: { arg: 'required', apply: (o, v) => void o.ignore.push(v!) },
  kibibytes: { arg: 'none', apply: () => undefined },
  dereference: { arg: 'none', apply: (o) => void (o.deref = 'always') },
  literal: { arg: 'none', apply: (o) => void (o.quoting = 'literal') },
  'numeric-uid-gid': { arg: 'none', apply: (o) => ((o.numeric = true), void (o.format = 'long')) },
  'hide-control-chars': { arg: 'none', apply: (o) => void (o.hideControl = true) },
  'show-control-chars': { arg: 'none', apply: (o) => void (o.hideControl = false) },
  'quote-name': { arg: 'none', apply: (o) => void (o.quoting = 'c') },
  'quoting-style': { arg: 'required', apply: (o, v) => choice('--quoting-style', v!, QUOTING_STYLES) ?? void (o.quoting = v as QuotingStyle) },
  reverse: { arg: 'none', apply: (o) => void (o.reverse = true) },
  recursive: { arg: 'none', apply: (o) => void (o.recursive = true) },
  size: { arg: 'none', apply: (o) => void (o.blocks = true) },
  sort: { arg: 'required', apply: (o, v) => sortWord(o, v!) },
  time: { arg: 'required', apply: (o, v) => timeWord(o, v!) },
  'time-style': { arg: 'required', apply: (o, v) => timeStyle(o, v!) },
  tabsize: { arg: 'required', apply: (o, v) => number('tab size', v!, (n) => (o.tabsize = n)) },
  width: { arg: 'required', apply: (o, v) => number('line width', v!, (n) => (o.width = n)) },
  context: { arg: 'none', apply: () => refuse('option -Z (security contexts)') },
  zero: { arg: 'none', apply: (o) => void (o.eol = '\0') },
  help: { arg: 'none', apply: () => refuse('option --help') },
  version: { arg: 'none', apply: () => refuse('option --version') },
};

const COLOR_WHEN = ['always', 'yes', 'force', 'never', 'no', 'none', 'auto', 'tty', 'if-tty'] as const;

/** GNU's complaint about an argument not in `valid` (an unambiguous prefix counts), or undefined when it is fine. */
function choice(option: string, value: string, valid: readonly string[]): LsRejection | undefined {
  if (valid.includes(value) || valid.filter((v) => v.startsWith(value)).length === 1) return undefined;
  const list = valid.map((v) => `  - '${v}'\n`).join('');
  return { stderr: `ls: invalid argument '${value}' for '${option}'\nValid arguments are:\n${list}Usage: ls [OPTION]... [FILE]...\n${TRY}` };
}
const expand = (value: string, valid: readonly string[]) => (valid.includes(value) ? value : (valid.find((v) => v.startsWith(value)) ?? value));

function classify(o: LsOptions, v: string | undefined): LsRejection | void {
  if (v !== undefined) {
    const bad = choice('--classify', v, COLOR_WHEN);
    if (bad) return bad;
    // Output here is never a terminal: `auto` classifies nothing, as for a pipe.
    if (!/^(always|yes|force)$/.test(expand(v, COLOR_WHEN))) return;
  }
  o.indicator = 'classify';
}

function format(o: LsOptions, v: string): LsRejection | void {
  const words = { across: 'across', commas: 'commas', horizontal: 'across', long: 'long', 'single-column': 'one', verbose: 'long', vertical: 'columns' } as const;
  const bad = choice('--format', v, Object.keys(words));
  if (bad) return bad;
  o.format = words[expand(v, Object.keys(words)) as keyof typeof words];
}

function indicatorStyle(o: LsOptions, v: string): LsRejection | void {
  const styles = ['none', 'slash', 'file-type', 'classify'] as const;
  const bad = choice('--indicator-style', v, styles);
  if (bad) return bad;
  o.indicator = expand(v, styles) as LsOptions['indicator'];
}

/** Sets the sort as an option chose it. */
function setSort(o: LsOptions, sort: LsOptions['sort']): void {
  o.sort = sort;
  o.sortGiven = true;
}

function sortWord(o: LsOptions, v: string): LsRejection | void {
  const words = ['none', 'time', 'size', 'extension', 'version', 'width', 'name'] as const;
  const bad = choice('--sort', v, words);
  if (bad) return bad;
  setSort(o, expand(v, words) as LsOptions['sort']);
}

/**
 * `--time=WORD`: the modification or the access time. The sprite keeps no change or birth times, so those words are
 * refused loudly.
 */
function timeWord(o: LsOptions, v: string): LsRejection | void {
  const words = ['atime', 'access', 'use', 'ctime', 'status', 'birth', 'creation', 'mtime', 'modification'] as const;
  const bad = choice('--time', v, words);
  if (bad) return bad;
  const word = expand(v, words);
  if (['atime', 'access', 'use'].includes(word)) return void (o.time = 'atime');
  if (!['mtime', 'modification'].includes(word)) return refuse(`--time=${v} (the shell engine keeps no change or birth times)`);
  o.time = 'mtime';
}

function timeStyle(o: LsOptions, v: string): LsRejection | void {
  const style = v.replace(/^posix-/, '');
  if (style.startsWith('+')) return void (o.timeStyle = style as `+${string}`);
  const bad = choice('--time-style', style, ['full-iso', 'long-iso', 'iso', 'locale']);
  if (bad) return bad;
  o.timeStyle = expand(style, ['full-iso', 'long-iso', 'iso', 'locale']) as LsOptions['timeStyle'];
}

function number(what: string, v: string, set: (n: number) => void): LsRejection | void {
  if (!/^\d+$/.test(v)) return { stderr: `ls: invalid ${what}: '${v}'\n` };
  set(Number(v));
}

/** Short options: letter → effect; the ones taking an argument are `I`, `T`, `w`. */
const SHORT: Record<string, Apply> = {
  a: LONG.all!.apply,
  A: LONG['almost-all']!.apply,
  b: LONG.escape!.apply,
  B: LONG['ignore-backups']!.apply,
  c: () => refuse('option -c (the shell engine keeps no change times)'),
  C: (o) => void (o.format = 'columns'),
  d: LONG.directory!.apply,
  D: LONG.dired!.apply,
  f: (o) => ((o.show = 'all'), setSort(o, 'none'), (o.blocks = false), void (o.format = o.format === 'long' ? 'one' : o.format)),
  F: (o) => void (o.indicator = 'classify'),
  g: (o) => ((o.owner = false), void (o.format = 'long')),
  G: LONG['no-group']!.apply,
  h: LONG['human-readable']!.apply,
  H: LONG['dereference-command-line']!.apply,
  i: LONG.inode!.apply,
  I: LONG.ignore!.apply,
  k: LONG.kibibytes!.apply,
  l: (o) => void (o.format = 'long'),
  L: LONG.dereference!.apply,
  m: (o) => void (o.format = 'commas'),
  n: LONG['numeric-uid-gid']!.apply,
  N: LONG.literal!.apply,
  o: (o) => ((o.group = false), void (o.format = 'long')),
  p: (o) => void (o.indicator = 'slash'),
  q: LONG['hide-control-chars']!.apply,
  Q: LONG['quote-name']!.apply,
  r: LONG.reverse!.apply,
  R: LONG.recursive!.apply,
  s: LONG.size!.apply,
  S: (o) => void setSort(o, 'size'),
  t: (o) => void setSort(o, 'time'),
  T: LONG.tabsize!.apply,
  u: (o) => void (o.time = 'atime'),
  U: (o) => void setSort(o, 'none'),
  v: (o) => void setSort(o, 'version'),
  w: LONG.width!.apply,
  x: (o) => void (o.format = 'across'),
  X: (o) => void setSort(o, 'extension'),
  Z: LONG.context!.apply,
  '1': (o) => void (o.format = 'one'),
};
const SHORT_WITH_ARG = 'ITw';

/**
 * Reads `args` into options; `width` is the line width before `-w` (from `COLUMNS`, else 80). Returns a rejection
 * for a command line GNU rejects (its words, exit 2) or one the shell engine cannot honour (loud, exit 2).
 */
export function parseLsArgs(args: readonly string[], width: number): LsOptions | LsRejection {
  const o: LsOptions = {
    show: 'default', ignoreBackups: false, ignore: [], hide: [], directory: false, recursive: false, format: 'one',
    owner: true, group: true, numeric: false, human: 0, blockSize: undefined, blocks: false, inode: false, sort: 'name', sortGiven: false, time: 'mtime', reverse: false, groupDirs: false,
    indicator: 'none', deref: null, quoting: 'literal', hideControl: false, width, tabsize: 8, timeStyle: 'locale',
    eol: '\n', operands: [],
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      o.operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const given = a.slice(2, eq < 0 ? undefined : eq);
      const names = LONG[given] ? [given] : Object.keys(LONG).filter((n) => n.startsWith(given));
      if (names.length !== 1) {
        if (names.length === 0) return { stderr: `ls: unrecognized option '${a}'\n${TRY}` };
        return { stderr: `ls: option '${a}' is ambiguous; possibilities:${names.map((n) => ` '--${n}'`).join('')}\n${TRY}` };
      }
      const name = names[0]!;
      const spec = LONG[name]!;
      let value = eq < 0 ? undefined : a.slice(eq + 1);
      if (spec.arg === 'none' && value !== undefined) return { stderr: `ls: option '--${name}' doesn't allow an argument\n${TRY}` };
      if (spec.arg === 'required' && value === undefined) {
        if (i + 1 >= args.length) return { stderr: `ls: option '--${name}' requires an argument\n${TRY}` };
        value = args[++i]!;
      }
      const bad = spec.apply(o, value);
      if (bad) return bad;
    } else if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        const apply = SHORT[c];
        if (!apply) return { stderr: `ls: invalid option -- '${c}'\n${TRY}` };
        let value: string | undefined;
        if (SHORT_WITH_ARG.includes(c)) {
          value = a.slice(j + 1) || args[++i];
          if (value === undefined) return { stderr: `ls: option requires an argument -- '${c}'\n${TRY}` };
          j = a.length;
        }
        const bad = apply(o, value);
        if (bad) return bad;
      }
    } else o.operands.push(a);
  }
  // GNU: `-u` alone sorts by access time; with -l it only shows it (and -t sorts by it).
  if (o.time === 'atime' && !o.sortGiven && o.format !== 'long') o.sort = 'time';
  return o;
}
