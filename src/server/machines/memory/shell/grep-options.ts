/**
 * GNU grep's command line, read as its getopt_long reads it: bundled short options, values attached or in the next
 * word, `-NUM` as context, long options by any unambiguous prefix (`--inc=*.ts`), options after operands, `--`.
 * It only reads the command line; grep-command.ts runs the search.
 * @see https://www.gnu.org/software/grep/manual/grep.html#Command_002dline-Options
 */
import type { ExecResult } from 'just-bash';
import type { GrepSyntax } from './grep-regex.ts';

export interface GrepOptions {
  syntax: GrepSyntax;
  /** `-e` patterns and `-f` files, in order (undefined: the first operand is the pattern). */
  sources: Array<{ pattern: string } | { file: string }>;
  ignoreCase: boolean;
  invert: boolean;
  word: boolean;
  line: boolean;
  count: boolean;
  list: 'matching' | 'missing' | undefined;
  max: number | undefined;
  only: boolean;
  quiet: boolean;
  noMessages: boolean;
  byteOffset: boolean;
  /** `-H` true, `-h` false, else undefined (GNU's default by operand count). */
  names: boolean | undefined;
  label: string;
  lineNumber: boolean;
  initialTab: boolean;
  nullName: boolean;
  nullData: boolean;
  after: number;
  before: number;
  /** Whether a context option was given, even of 0 lines: GNU then separates non-adjacent groups (`-A0`). */
  contextGiven: boolean;
  groupSeparator: string | undefined;
  binary: 'binary' | 'text' | 'without-match';
  directories: 'read' | 'skip' | 'recurse';
  /** `-R`: symlinks met in the walk are followed too. */
  dereference: boolean;
  devicesSkip: boolean;
  include: string[];
  exclude: string[];
  /** `--exclude-from=FILE`: files of more `--exclude` globs, one per line (grep-command.ts reads them). */
  excludeFrom: string[];
  excludeDir: string[];
  color: boolean;
}

const TRY = "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n";
const usage = (text: string): ExecResult => ({ stdout: '', stderr: `grep: ${text}\n${TRY}`, exitCode: 2 });

/** Long options: the short letter they stand for, or a name handled below; `=` marks a required value. */
const LONG: Record<string, string> = {
  'extended-regexp': 'E', 'fixed-strings': 'F', 'basic-regexp': 'G', 'perl-regexp': 'P', 'regexp=': 'e', 'file=': 'f',
  'ignore-case': 'i', 'no-ignore-case': 'no-ignore-case', 'word-regexp': 'w', 'line-regexp': 'x', 'null-data': 'z',
  'no-messages': 's', 'invert-match': 'v', 'max-count=': 'm', 'byte-offset': 'b', 'line-number': 'n',
  'no-line-number': 'no-line-number', 'line-buffered': 'line-buffered', 'with-filename': 'H', 'no-filename': 'h',
  'label=': 'label', 'only-matching': 'o', quiet: 'q', silent: 'q', 'binary-files=': 'binary-files', text: 'a',
  'directories=': 'd', 'devices=': 'D', recursive: 'r', 'dereference-recursive': 'R', 'include=': 'include',
  'exclude=': 'exclude', 'exclude-from=': 'exclude-from', 'exclude-dir=': 'exclude-dir', 'files-without-match': 'L', 'files-with-matches': 'l',
  count: 'c', 'initial-tab': 'T', null: 'Z', 'before-context=': 'B', 'after-context=': 'A', 'context=': 'C',
  'group-separator=': 'group-separator', 'no-group-separator': 'no-group-separator', 'color?': 'color', 'colour?': 'color',
  binary: 'U',
};

const VALUED = new Set(['e', 'f', 'm', 'A', 'B', 'C', 'd', 'D']);

/** GNU grep's options and operands of `args`, or its complaint (exit 2). */
export function parseGrep(args: string[]): { o: GrepOptions; operands: string[] } | ExecResult {
  const o: GrepOptions = {
    syntax: 'basic', sources: [], ignoreCase: false, invert: false, word: false, line: false, count: false, list: undefined, max: undefined,
    only: false, quiet: false, noMessages: false, byteOffset: false, names: undefined, label: '(standard input)', lineNumber: false,
    initialTab: false, nullName: false, nullData: false, after: -1, before: -1, contextGiven: false, groupSeparator: '--', binary: 'binary', directories: 'read',
    dereference: false, devicesSkip: false, include: [], exclude: [], excludeFrom: [], excludeDir: [], color: false,
  };
  let context = -1;
  let matcher: string | undefined;
  /** -E, -F, -G, -P: a second, different one is GNU's `conflicting matchers specified`. */
  const pick = (key: string, syntax: GrepSyntax): ExecResult | undefined => {
    if (matcher !== undefined && matcher !== key) return { stdout: '', stderr: 'grep: conflicting matchers specified\n', exitCode: 2 };
    matcher = key;
    o.syntax = syntax;
    return undefined;
  };
  const operands: string[] = [];
  const num = (v: string, what: string): number | ExecResult => (/^\d+$/.test(v) ? Number(v) : usage(`${v}: invalid ${what} argument`));
  /** Applies option `key` (a short letter or long name) with `value`; a result is an error. */
  const apply = (key: string, value: string | undefined): ExecResult | undefined => {
    const v = value ?? '';
    switch (key) {
      case 'E': return pick(key, 'extended');
      case 'F': return pick(key, 'fixed');
      case 'G': return pick(key, 'basic');
      case 'P': return pick(key, 'perl');
      case 'e': o.sources.push({ pattern: v }); break;
      case 'f': o.sources.push({ file: v }); break;
      case 'i': case 'y': o.ignoreCase = true; break;
      case 'no-ignore-case': o.ignoreCase = false; break;
      case 'w': o.word = true; break;
      case 'x': o.line = true; break;
      case 'z': o.nullData = true; break;
      case 's': o.noMessages = true; break;
      case 'v': o.invert = true; break;
      case 'c': o.count = true; break;
      case 'l': o.list = 'matching'; break;
      case 'L': o.list = 'missing'; break;
      case 'o': o.only = true; break;
      case 'q': o.quiet = true; break;
      case 'b': o.byteOffset = true; break;
      case 'n': o.lineNumber = true; break;
      case 'no-line-number': o.lineNumber = false; break;
      case 'H': o.names = true; break;
      case 'h': o.names = false; break;
      case 'T': o.initialTab = true; break;
      case 'Z': o.nullName = true; break;
      case 'a': o.binary = 'text'; break;
      case 'I': o.binary = 'without-match'; break;
      case 'U': case 'line-buffered': break; // no CR/LF distinction, no buffering to change
      case 'r': o.directories = 'recurse'; break;
      case 'R': o.directories = 'recurse'; o.dereference = true; break;
      case 'label': o.label = v; break;
      case 'include': o.include.push(v); break;
      case 'exclude': o.exclude.push(v); break;
      case 'exclude-from': o.excludeFrom.push(v); break;
      case 'exclude-dir': o.excludeDir.push(v); break;
      case 'group-separator': o.groupSeparator = v; break;
      case 'no-group-separator': o.groupSeparator = undefined; break;
      case 'color': o.color = value === undefined ? false : value === 'always' || value === 'yes' || value === 'force'; break;
      case 'binary-files':
        if (v !== 'binary' && v !== 'text' && v !== 'without-match') return usage('unknown binary-files type');
        o.binary = v;
        break;
      case 'd':
        if (v !== 'read' && v !== 'skip' && v !== 'recurse') return usage(`invalid argument ‘${v}’ for ‘--directories’\nValid arguments are:\n  - ‘read’\n  - ‘recurse’\n  - ‘skip’`);
        o.directories = v;
        break;
      case 'D':
        if (v !== 'read' && v !== 'skip') return usage('unknown devices method');
        o.devicesSkip = v === 'skip';
        break;
      case 'm': {
        const n = /^-?\d+$/.test(v) ? Number(v) : usage('invalid max count');
        if (typeof n !== 'number') return n;
        o.max = n < 0 ? undefined : n;
        break;
      }
      case 'A': case 'B': case 'C': {
        const n = num(v, 'context length');
        if (typeof n !== 'number') return n;
        if (key === 'A') o.after = n;
        else if (key === 'B') o.before = n;
        else context = n;
        break;
      }
      default:
        return usage(`invalid option -- '${key}'`);
    }
    return undefined;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      const hits = Object.keys(LONG).filter((k) => k.replace(/[=?]$/, '') === name);
      const candidates = hits.length > 0 ? hits : Object.keys(LONG).filter((k) => k.startsWith(name));
      const keys = new Set(candidates.map((k) => LONG[k]));
      if (keys.size !== 1) return usage(candidates.length === 0 ? `unrecognized option '${a}'` : `option '${a}' is ambiguous`);
      const spec = candidates[0]!;
      let value = eq < 0 ? undefined : a.slice(eq + 1);
      if (spec.endsWith('=') && value === undefined) {
        if (i + 1 >= args.length) return usage(`option '--${spec.slice(0, -1)}' requires an argument`);
        value = args[++i];
      } else if (!spec.endsWith('=') && !spec.endsWith('?') && value !== undefined) return usage(`option '--${spec}' doesn't allow an argument`);
      const r = apply(LONG[spec]!, value);
      if (r) return r;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (/\d/.test(c)) {
          // -NUM is --context=NUM; its digits may run on (`-12`).
          const digits = /^\d+/.exec(a.slice(j))![0];
          context = Number(digits);
          j += digits.length - 1;
          continue;
        }
        if (VALUED.has(c)) {
          let value: string | undefined = a.slice(j + 1);
          if (value === '') {
            if (i + 1 >= args.length) return usage(`option requires an argument -- '${c}'`);
            value = args[++i];
          }
          const r = apply(c, value);
          if (r) return r;
          break;
        }
        const r = apply(c, undefined);
        if (r) return r;
      }
      continue;
    }
    operands.push(a);
  }
  if (context >= 0) {
    if (o.after < 0) o.after = context;
    if (o.before < 0) o.before = context;
  }
  o.contextGiven = o.after >= 0 || o.before >= 0;
  o.after = Math.max(o.after, 0);
  o.before = Math.max(o.before, 0);
  return { o, operands };
}
