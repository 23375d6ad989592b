/**
 * Which options a GNU program has, and what it answers to one it lacks. A command of the shell engine that rejects
 * an option cannot tell a typo from an option GNU has and the engine lacks; the program's own `--help` can: every
 * GNU program lists its options there (`  -n, --quiet, --silent`, `  -k, --key=KEYDEF`). An option the list lacks
 * is a typo, and GNU's answer is getopt's line (`sed: unrecognized option '--bogus'`, `cut: invalid option -- 'Q'`)
 * and the program's usage tail and status (`Try 'cut --help' for more information.`, 1; grep's and sort's 2, tar's
 * 64, sed's whole help): read once from the host's own program (it is GPL output, not shipped), run with an option
 * no program has. getopt_long also takes an unambiguous abbreviation of a long option (`sort --rev`, `wc --l`).
 * Without the host's GNU program nothing is known here (the caller refuses loudly).
 * @see glibc getopt (`_getopt_internal_r`'s messages), GNU coreutils manual "Common options"
 */
import { spawnSync } from 'node:child_process';
import type { ExecResult } from 'just-bash';
import { GNU_HELP_NAMES, hostCoreutilsText, hostPackageVersion } from './gnu-help.ts';

/** Whether an option takes a value: none, a required one (`-k KEYDEF`, `--key=KEYDEF`), or an optional one (`-i[SUFFIX]`). */
type Arg = 'none' | 'required' | 'optional';

/** A program's options as its `--help` lists them: short letters and long names, each with its kind of value. */
export interface GnuOptionTable {
  short: Map<string, Arg>;
  long: Map<string, Arg>;
}

/** The GNU package of each non-coreutils program whose host `--help` is trusted here (its `--version` names it). */
const PACKAGES: Record<string, string> = { sed: 'sed', grep: 'grep', egrep: 'grep', fgrep: 'grep', diff: 'diffutils', cmp: 'diffutils', xargs: 'findutils', tar: 'tar' };

/**
 * Options documented nowhere in `--help` that GNU still takes (obsolete spellings kept for old scripts): `grep -y`
 * (-i), `sort -y` (ignored), tail's `---presume-input-pipe`.
 */
const UNDOCUMENTED: Record<string, string[]> = { grep: ['-y'], egrep: ['-y'], fgrep: ['-y'], sort: ['-y'], tail: ['---presume-input-pipe'] };

/**
 * The option table of a `--help` text: from each line that starts (indented at most 8 columns) with an option, the
 * options before its description (two spaces, or the end of the line). A group's value kind is its `=ARG`/` ARG`
 * (required) or `[=ARG]`/`[ARG]` (optional), and applies to every option of the group.
 */
export function parseHelpOptions(help: string): GnuOptionTable {
  const table: GnuOptionTable = { short: new Map(), long: new Map() };
  for (const line of help.split('\n')) {
    const m = /^ {1,8}(-.*?)(?: {2,}|$)/.exec(line);
    if (!m) continue;
    const specs = m[1]!.split(/,\s*/);
    if (!specs.every((s) => s.startsWith('-'))) continue;
    const arg: Arg = specs.some((s) => /^-{1,2}[^\s=[]+\[/.test(s)) ? 'optional' : specs.some((s) => /^-{1,2}[^\s=[]+[= ]/.test(s)) ? 'required' : 'none';
    for (const s of specs) {
      const name = /^(-{1,3}[^\s=[]+)/.exec(s)?.[1];
      if (!name) continue;
      if (name.startsWith('--')) table.long.set(name, arg);
      else if (name.length === 2) table.short.set(name[1]!, arg);
    }
  }
  return table;
}

const tables = new Map<string, GnuOptionTable | null>();

/**
 * The option table of GNU `name` as the host's `name --help` lists it (kept after the first call), or undefined when
 * the host has no such GNU program. Runs it (fixed arguments, at most 5 s).
 */
export function gnuOptionTable(name: string, help: (name: string) => string | undefined = hostHelp): GnuOptionTable | undefined {
  if (!tables.has(name) || help !== hostHelp) {
    const text = GNU_HELP_NAMES.includes(name) ? help(name) : undefined;
    const table = text === undefined ? null : parseHelpOptions(text);
    if (table) for (const u of UNDOCUMENTED[name] ?? []) (u.startsWith('--') ? table.long : table.short).set(u.startsWith('--') ? u : u[1]!, 'none');
    if (help !== hostHelp) return table ?? undefined;
    tables.set(name, table);
  }
  return tables.get(name) ?? undefined;
}

/** The host's `name --help` for a coreutils program, or for one of {@link PACKAGES} when the host's is GNU's. */
function hostHelp(name: string): string | undefined {
  const pkg = PACKAGES[name];
  if (pkg === undefined) return hostCoreutilsText(name, '--help');
  if (!hostPackageVersion(name, pkg)) return undefined;
  const r = spawnSync(name, ['--help'], { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'], env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' } });
  return r.status === 0 && r.stdout ? r.stdout : undefined;
}

/**
 * What GNU `name`'s getopt makes of the option `opt` (a long one as written, `=VALUE` and all, or `-c` for a short
 * letter): `unknown`, `known`, `known` with `full` when it is an unambiguous abbreviation of the long option `full`,
 * or `ambiguous`; undefined when the host has no GNU `name` to tell.
 */
export function gnuOptionStatus(name: string, opt: string, table = gnuOptionTable(name)): { kind: 'unknown' | 'known' | 'ambiguous'; full?: string } | undefined {
  if (!table) return undefined;
  if (!opt.startsWith('--')) return { kind: table.short.has(opt.slice(1)) ? 'known' : 'unknown' };
  const given = opt.split('=')[0]!;
  if (table.long.has(given)) return { kind: 'known' };
  const hits = [...table.long.keys()].filter((n) => n.startsWith(given));
  if (hits.length === 1) return { kind: 'known', full: hits[0] };
  return { kind: hits.length === 0 ? 'unknown' : 'ambiguous' };
}

/** The probe: an option no program has. */
const PROBE = '--spritzer-no-such-option';
const tails = new Map<string, { tail: string; status: number } | null>();

/**
 * What the host's GNU `name` writes after getopt's line for an option it lacks, and its status (kept after the first
 * call), or undefined when its answer to {@link PROBE} is not getopt's. Runs it (fixed arguments, at most 5 s).
 */
function hostRejectionTail(name: string): { tail: string; status: number } | undefined {
  if (!tails.has(name)) {
    const r = spawnSync(name, [PROBE], { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' } });
    const first = `${name}: unrecognized option '${PROBE}'\n`;
    const ok = typeof r.status === 'number' && r.status !== 0 && r.stdout === '' && r.stderr?.startsWith(first);
    tails.set(name, ok ? { tail: r.stderr.slice(first.length), status: r.status! } : null);
  }
  return tails.get(name) ?? undefined;
}

/**
 * GNU `name`'s answer to the option `opt` it lacks (`--bogus=3` as written, or `-Q`): getopt's line, then the
 * program's usage tail, with its status; undefined when the host cannot say. `tail` reads the host's (tests replace it).
 */
export function gnuRejection(name: string, opt: string, tail = hostRejectionTail): ExecResult | undefined {
  const t = tail(name);
  if (!t) return undefined;
  const line = opt.startsWith('--') ? `unrecognized option '${opt}'` : `invalid option -- '${opt.slice(1)}'`;
  return { stdout: '', stderr: `${name}: ${line}\n${t.tail}`, exitCode: t.status };
}

/**
 * GNU `name`'s rejection of the first option in `args` it lacks, as its getopt scans them (options anywhere before
 * `--`, a short option's value attached or next, a long one's after `=` or next); undefined when every option is
 * known, or the host cannot say. For a command that must fail on a typo before anything else (no script given).
 */
export function firstRejection(name: string, args: readonly string[]): ExecResult | undefined {
  const table = gnuOptionTable(name);
  if (!table) return undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return undefined;
    if (a.startsWith('--')) {
      const st = gnuOptionStatus(name, a, table);
      if (st?.kind === 'unknown') return gnuRejection(name, a);
      if (!a.includes('=') && table.long.get(st?.full ?? a.split('=')[0]!) === 'required') i++;
    } else if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const kind = table.short.get(a[j]!);
        if (kind === undefined) return gnuRejection(name, `-${a[j]}`);
        if (kind !== 'none') {
          if (kind === 'required' && j === a.length - 1) i++;
          break;
        }
      }
    }
  }
  return undefined;
}
