/**
 * `ps`, `pgrep` and `pkill` of the `shell` engine, over the sprite's process table (machines/memory/processes.ts):
 * every exec's command and every background job, including those an earlier exec left running. It owns option
 * parsing and procps's output layout; it does not start or end processes itself (the table's entries do).
 * @see ps(1), pgrep(1) (procps-ng); docs/fidelity.md "Shell engine job control"
 */
import { PROCPS_VERSION } from './free-uptime.ts';
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import type { ProcessTable, ProcessInfo } from '../processes.ts';
import { normalizeSignalName } from '../../../../protocol/signals.ts';
import { SANDBOX_HINT } from './world.ts';
import { SPRITE_ACCOUNT } from '../accounts.ts';

/** What the commands need from the exec that runs them. */
export interface ProcessCommandContext {
  /** The sprite's process table; absent (a bare context) lists only the exec itself and the command. */
  processes?: ProcessTable;
  /** The exec's own process, as `ps` shows it (the parent of the `ps` it runs). */
  self: ProcessInfo;
  /** The sprite's next pid (the `ps`/`pgrep` command's own). */
  allocatePid: () => number;
  /** Epoch ms on the machine's clock (START, STIME, ELAPSED). */
  now: () => number;
}

/** The user every process of a shell-engine sprite runs as (the sprite's default user, `id`'s). */
const USER = { name: SPRITE_ACCOUNT.name, uid: SPRITE_ACCOUNT.uid };
/** procps sizes the PID columns to the digits of `kernel.pid_max` (32768 on the machines Sprites run on: 5). */
const PID_WIDTH = 5;

const NAMES = ['ps', 'pgrep', 'pkill'] as const;
/** The commands this module defines. */
export const PROCESS_COMMAND_NAMES: readonly string[] = NAMES;

type Row = ProcessInfo & { state: string };

/** One output column of `ps`: its header, width, alignment, and value. */
interface Column {
  header: string;
  width: number;
  left: boolean;
  value(p: Row, now: number): string;
}

const two = (n: number) => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** `START`/`STIME`: `HH:MM` within the last day, else `MonDD` (procps, UTC as the sprite's clock). */
function startOf(p: Row, now: number): string {
  const d = new Date(p.startedAt);
  return now - p.startedAt < 24 * 3600_000 ? `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}` : `${MONTHS[d.getUTCMonth()]}${two(d.getUTCDate())}`;
}
/** `ELAPSED`: `[[DD-]hh:]mm:ss`. */
function elapsedOf(p: Row, now: number): string {
  const s = Math.max(0, Math.floor((now - p.startedAt) / 1000));
  const days = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const hms = `${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
  return days > 0 ? `${days}-${two(h)}:${hms}` : h > 0 ? `${two(h)}:${hms}` : hms;
}

const col = (header: string, width: number, left: boolean, value: Column['value']): Column => ({ header, width, left, value });
/**
 * A command line as procps shows it: each control character (a newline or tab of a `bash -c` script) reads `?`, so
 * a process is one line (procps escape_str).
 */
const printable = (args: string): string => args.replace(/[\x00-\x1f\x7f]/g, '?');

/** The `-o` keywords spritzer knows, with procps's headers and widths. CPU and memory figures are not measured: 0. */
const COLUMNS: Record<string, Column> = {
  pid: col('PID', PID_WIDTH, false, (p) => String(p.pid)),
  ppid: col('PPID', PID_WIDTH, false, (p) => String(p.ppid)),
  pgid: col('PGID', PID_WIDTH, false, (p) => String(p.pid)),
  sid: col('SID', PID_WIDTH, false, (p) => String(p.pid)),
  user: col('USER', 8, true, () => USER.name),
  uid: col('UID', PID_WIDTH, false, () => String(USER.uid)),
  comm: col('COMMAND', 15, true, (p) => p.comm),
  ucmd: col('CMD', 15, true, (p) => p.comm),
  args: col('COMMAND', 27, true, (p) => printable(p.args)),
  cmd: col('CMD', 27, true, (p) => printable(p.args)),
  command: col('COMMAND', 27, true, (p) => printable(p.args)),
  tty: col('TT', 8, true, (p) => p.tty ?? '?'),
  tname: col('TTY', 8, true, (p) => p.tty ?? '?'),
  stat: col('STAT', 4, true, (p) => p.state),
  s: col('S', 1, true, (p) => p.state),
  time: col('TIME', 8, false, () => '00:00:00'),
  cputime: col('TIME', 8, false, () => '00:00:00'),
  etime: col('ELAPSED', 11, false, elapsedOf),
  etimes: col('ELAPSED', 7, false, (p, now) => String(Math.max(0, Math.floor((now - p.startedAt) / 1000)))),
  start: col('STARTED', 8, false, startOf),
  stime: col('STIME', 5, true, startOf),
  bsdstart: col('START', 5, true, startOf),
  bsdtime: col('TIME', 6, false, () => '0:00'),
  '%cpu': col('%CPU', 4, false, () => '0.0'),
  pcpu: col('%CPU', 4, false, () => '0.0'),
  '%mem': col('%MEM', 4, false, () => '0.0'),
  pmem: col('%MEM', 4, false, () => '0.0'),
  rss: col('RSS', 5, false, () => '0'),
  rssize: col('RSS', 5, false, () => '0'),
  vsz: col('VSZ', 6, false, () => '0'),
  c: col('C', 2, false, () => '0'),
  nlwp: col('NLWP', 4, false, () => '1'),
};
const STANDARD = ['pid', 'tname', 'time', 'ucmd'];
const FULL = [['user', 'UID', 8, true], ['pid'], ['ppid'], ['c'], ['stime'], ['tname'], ['time'], ['cmd']] as const;
const BSD_USER: Array<[string, string?, number?]> = [['user', 'USER', 8], ['pid'], ['%cpu'], ['%mem'], ['vsz'], ['rss'], ['tname'], ['stat'], ['bsdstart'], ['bsdtime'], ['command']];

const ok = (stdout: string, exitCode = 0): ExecResult => ({ stdout, stderr: '', exitCode });
const fail = (stderr: string, exitCode = 1): ExecResult => ({ stdout: '', stderr, exitCode });

/** Renders rows in columns: each padded to its width (the last one not), separated by one space, as procps does. */
function render(columns: Array<{ column: Column; header: string }>, rows: Row[], now: number, headers: boolean): string {
  const line = (cells: string[]) =>
    cells
      .map((c, i) => {
        const { column } = columns[i]!;
        if (i === cells.length - 1 && column.left) return c;
        return column.left ? c.padEnd(column.width) : c.padStart(column.width);
      })
      .join(' ')
      .trimEnd();
  const out: string[] = [];
  if (headers && columns.some((c) => c.header !== '')) out.push(line(columns.map((c) => c.header)));
  for (const r of rows) out.push(line(columns.map((c) => c.column.value(r, now))));
  return out.map((l) => `${l}\n`).join('');
}

/** Parses `-o`/`o`/`--format` lists (`pid,comm=NAME`, `pid=`): a header after `=` replaces procps's. */
function parseFormat(spec: string): Array<{ column: Column; header: string }> | string {
  const out: Array<{ column: Column; header: string }> = [];
  const keys = spec.split(/[,\s]+/);
  for (const key of keys.filter((k) => k !== '')) {
    const [name, header] = key.includes('=') ? [key.slice(0, key.indexOf('=')), key.slice(key.indexOf('=') + 1)] : [key, undefined];
    const column = COLUMNS[name!.toLowerCase()];
    if (!column) return name!;
    out.push({ column: header === undefined ? column : { ...column, width: Math.max(column.width, header.length) }, header: header ?? column.header });
  }
  return out;
}

const preset = (list: ReadonlyArray<readonly [string, string?, number?, boolean?]>) =>
  list.map(([key, header, width, left]) => {
    const column = COLUMNS[key]!;
    return { column: { ...column, width: width ?? column.width, left: left ?? column.left }, header: header ?? column.header };
  });

/** What a `ps` command line asks for. */
interface PsRequest {
  all: boolean;
  pids: number[] | null;
  names: string[] | null;
  columns: Array<{ column: Column; header: string }> | null;
  format: 'standard' | 'full' | 'user';
  headers: boolean;
  sort: string[];
}

/**
 * Parses ps's UNIX (`-ef`), BSD (`aux`) and GNU (`--pid`) options; a string is the error to print, `{ version }`
 * a request for the version (`-V`, `V`, `--version`), which procps answers before looking at anything else.
 */
function parsePs(args: string[]): PsRequest | string | { version: true } {
  const req: PsRequest = { all: false, pids: null, names: null, columns: null, format: 'standard', headers: true, sort: [] };
  const addColumns = (spec: string): string | undefined => {
    const parsed = parseFormat(spec);
    if (typeof parsed === 'string') return `error: unknown user-defined format specifier "${parsed}"`;
    req.columns = [...(req.columns ?? []), ...parsed];
    return undefined;
  };
  const list = (v: string) => v.split(/[,\s]+/).filter((x) => x !== '');
  for (let i = 0; i < args.length; i++) {
    // `ps -aux` is BSD's `aux` when no user is named "x" (procps's own rule)
    const a = args[i] === '-aux' ? 'aux' : args[i]!;
    const value = () => args[++i] ?? '';
    const long = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    if (a === '-V' || a === 'V' || a === '--version') return { version: true };
    if (long) {
      const [, name, inline] = long;
      const v = () => inline ?? value();
      if (name === 'pid') req.pids = [...(req.pids ?? []), ...list(v()).map(Number)];
      else if (name === 'format') {
        const e = addColumns(v());
        if (e) return e;
      } else if (name === 'no-headers' || name === 'no-heading') req.headers = false;
      else if (name === 'sort') req.sort = list(v());
      else if (name === 'cols' || name === 'columns' || name === 'width') v();
      else if (name === 'forest') continue;
      else return `error: unknown gnu long option "${a}"`;
      continue;
    }
    if (/^\d+(,\d+)*$/.test(a)) {
      // a bare number is a pid (procps's BSD form: `ps 123`, `ps -p 1 2`)
      req.pids = [...(req.pids ?? []), ...list(a).map(Number)];
      continue;
    }
    const unix = a.startsWith('-');
    const letters = unix ? a.slice(1) : a;
    for (let j = 0; j < letters.length; j++) {
      const c = letters[j]!;
      const rest = () => (j + 1 < letters.length ? letters.slice(j + 1) : value());
      if (c === 'e' || c === 'A' || c === 'a' || c === 'x') req.all = true;
      else if (c === 'f' && unix) req.format = 'full';
      else if (c === 'u' && !unix) req.format = 'user';
      else if (c === 'p' || c === 'q') {
        req.pids = [...(req.pids ?? []), ...list(rest()).map(Number)];
        break;
      } else if (c === 'C' && unix) {
        req.names = [...(req.names ?? []), ...list(rest())];
        break;
      } else if (c === 'o' || c === 'O') {
        const e = addColumns(rest());
        if (e) return e;
        break;
      } else if ((c === 'u' || c === 'U') && unix) {
        rest();
        req.all = true;
        break;
      } else if (c === 'w' || c === 'l' || c === 'H' || c === 'F' || c === 'y') continue;
      else if (c === 'h' && !unix) req.headers = false;
      else return `error: unsupported option (${unix ? '-' : ''}${c}) in the shell engine; ${SANDBOX_HINT}`;
    }
  }
  if (req.pids?.some((p) => !Number.isInteger(p) || p < 1)) return 'error: process ID list syntax error';
  return req;
}

/**
 * The rows `ps` and `pgrep` see: the table (or the exec alone), plus the command itself, in pid order. A command the
 * exec runs directly (`cmd=ps&cmd=aux`, no shell) is the exec's own process, not a child of it: it is not listed
 * twice, and its row is the one that is running. So is the last command of a `bash -c` script (`inPlace`), which bash
 * runs in its own process (execve without a fork): the shell's row is then that command's (`bash -c 'ps -p $$'`
 * lists `ps`).
 */
function snapshot(ctx: ProcessCommandContext, own: { args: string[]; comm: string }, inPlace = false): { rows: Row[]; self: Row } {
  const listed: ProcessInfo[] = ctx.processes ? ctx.processes.list() : [ctx.self];
  const rows: Row[] = listed.map((p) => ({ pid: p.pid, ppid: p.ppid, args: p.args, comm: p.comm, startedAt: p.startedAt, tty: p.tty, state: 'S' }));
  const direct = inPlace || (ctx.self.comm === own.comm && ctx.self.args.split(' ').slice(1).join(' ') === own.args.join(' '));
  const exec = direct ? rows.find((r) => r.pid === ctx.self.pid) : undefined;
  if (exec) {
    Object.assign(exec, { state: 'R', comm: own.comm, args: [own.comm, ...own.args].join(' ') });
    return { rows, self: exec };
  }
  const command: Row = { pid: ctx.allocatePid(), ppid: ctx.self.pid, args: [own.comm, ...own.args].join(' '), comm: own.comm, startedAt: ctx.now(), tty: ctx.self.tty, state: 'R' };
  return { rows: [...rows, command].sort((a, b) => a.pid - b.pid), self: command };
}

/**
 * Whether the command runs in the shell's own process (the last command of a `bash -c` script), as its filesystem
 * view knows (bash-fs.ts `runsInShellProcess`).
 */
const runsInPlace = (fs: object): boolean => (fs as { runsInShellProcess?: () => boolean }).runsInShellProcess?.() === true;

function ps(args: string[], ctx: ProcessCommandContext, inPlace: boolean): ExecResult {
  const req = parsePs(args);
  if (typeof req === 'string') return fail(`${req}\n`);
  if ('version' in req) return { stdout: `ps from procps-ng ${PROCPS_VERSION}\n`, stderr: '', exitCode: 0 };
  const { rows } = snapshot(ctx, { args, comm: 'ps' }, inPlace);
  let selected = rows.filter((r) => {
    if (req.pids || req.names) return (req.pids?.includes(r.pid) ?? false) || (req.names?.includes(r.comm) ?? false);
    return req.all || r.tty === ctx.self.tty;
  });
  for (const key of [...req.sort].reverse()) {
    const desc = key.startsWith('-');
    const name = key.replace(/^[-+]/, '').toLowerCase();
    const by = name === 'pid' || name === 'ppid' ? (r: Row) => r[name] : name === 'comm' || name === 'cmd' || name === 'args' ? (r: Row) => (name === 'comm' ? r.comm : r.args) : name === 'start_time' || name === 'etime' ? (r: Row) => r.startedAt : null;
    if (!by) continue; // %cpu, %mem, rss…: equal for every process here, so any order of them is procps's
    selected = [...selected].sort((a, b) => {
      const x = by(a);
      const y = by(b);
      return (x < y ? -1 : x > y ? 1 : 0) * (desc ? -1 : 1);
    });
  }
  const columns = req.columns ?? (req.format === 'full' ? preset(FULL) : req.format === 'user' ? preset(BSD_USER) : preset(STANDARD.map((k) => [k] as const)));
  const out = render(columns, selected, ctx.now(), req.headers);
  return ok(out, (req.pids || req.names) && selected.length === 0 ? 1 : 0);
}

/** pgrep/pkill's options. */
interface MatchRequest {
  pattern: RegExp;
  full: boolean;
  signal: string;
  list: 'pid' | 'name' | 'args';
  newest: boolean;
  oldest: boolean;
  parent: number[] | null;
  delimiter: string;
  count: boolean;
}

function parseMatch(tool: 'pgrep' | 'pkill', args: string[]): MatchRequest | ExecResult {
  let full = false;
  let exact = false;
  let ignoreCase = false;
  let signal = 'TERM';
  let list: MatchRequest['list'] = 'pid';
  let newest = false;
  let oldest = false;
  let count = false;
  let parent: number[] | null = null;
  let delimiter = '\n';
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      operands.push(a);
      continue;
    }
    if (tool === 'pkill' && /^-([A-Za-z]+|\d+)$/.test(a) && normalizeSignalName(a.slice(1)) !== null && !/^-[fxinoc]+$/.test(a)) {
      signal = normalizeSignalName(a.slice(1))!;
      continue;
    }
    if (a === '--signal' || (tool === 'pkill' && a.startsWith('--signal='))) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i] ?? '';
      const name = normalizeSignalName(v);
      if (!name) return fail(`${tool}: Unknown signal "${v}".\n`, 2);
      signal = name;
      continue;
    }
    if (a === '--full') full = true;
    else if (a === '--exact') exact = true;
    else if (a === '--list-name') list = 'name';
    else if (a === '--list-full') list = 'args';
    else if (a === '--newest') newest = true;
    else if (a === '--oldest') oldest = true;
    else if (a === '--count') count = true;
    else if (a === '--ignore-case') ignoreCase = true;
    else if (a.startsWith('--')) return fail(`${tool}: unrecognized option '${a}'\n`, 2);
    else {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === 'f') full = true;
        else if (c === 'x') exact = true;
        else if (c === 'i') ignoreCase = true;
        else if (c === 'l' && tool === 'pgrep') list = 'name';
        else if (c === 'a' && tool === 'pgrep') list = 'args';
        else if (c === 'n') newest = true;
        else if (c === 'o') oldest = true;
        else if (c === 'c') count = true;
        else if (c === 'P' || c === 'd' || c === 'u' || c === 'U') {
          const v = j + 1 < a.length ? a.slice(j + 1) : args[++i] ?? '';
          if (c === 'P') parent = v.split(',').map(Number);
          if (c === 'd') delimiter = v;
          break;
        } else return fail(`${tool}: invalid option -- '${c}'\nUsage:\n ${tool} [options] <pattern>\n`, 2);
      }
    }
  }
  if (operands.length === 0 && !parent) return fail(`${tool}: no matching criteria specified\nTry \`${tool} --help' for more information.\n`, 2);
  if (operands.length > 1) return fail(`${tool}: only one pattern can be provided\nTry \`${tool} --help' for more information.\n`, 2);
  let pattern: RegExp;
  try {
    const source = operands[0] ?? '';
    pattern = new RegExp(exact ? `^(?:${source})$` : source, ignoreCase ? 'i' : '');
  } catch {
    return fail(`${tool}: invalid regular expression\n`, 2);
  }
  return { pattern, full, signal, list, newest, oldest, parent, delimiter, count };
}

function matching(tool: 'pgrep' | 'pkill', args: string[], ctx: ProcessCommandContext, inPlace: boolean): ExecResult {
  const req = parseMatch(tool, args);
  if (!('pattern' in req)) return req;
  // procps never matches itself; everything else does, the shell that runs it included (its command line too).
  const { rows, self } = snapshot(ctx, { args, comm: tool }, inPlace);
  let hits = rows.filter((r) => r !== self && req.pattern.test(req.full ? r.args : r.comm) && (!req.parent || req.parent.includes(r.ppid)));
  if (req.newest) hits = hits.slice(-1);
  if (req.oldest) hits = hits.slice(0, 1);
  const status = hits.length > 0 ? 0 : 1;
  if (tool === 'pkill') {
    for (const h of hits) ctx.processes?.signal(h.pid, req.signal);
    return ok(req.count ? `${hits.length}\n` : '', status);
  }
  if (req.count) return ok(`${hits.length}\n`, status);
  const lines = hits.map((h) => (req.list === 'name' ? `${h.pid} ${h.comm}` : req.list === 'args' ? `${h.pid} ${h.args}` : String(h.pid)));
  return ok(lines.length > 0 ? `${lines.join(req.delimiter)}\n` : '', status);
}

/**
 * `ps` (UNIX `-e -A -f -p -C -o`, BSD `a x u h o`, GNU `--pid --format --no-headers --sort`), `pgrep` and `pkill`
 * (`-f -x -i -l -a -n -o -c -P -d`, `-SIG`/`--signal`) over the sprite's processes. Every process runs as the
 * sprite's user; CPU and memory columns read 0 (the engine measures neither).
 * @deviation procps reads /proc; here the table is the sprite's execs and jobs, with no init, kernel threads or the
 * agent, and `TIME`, `%CPU`, `%MEM`, `VSZ`, `RSS` are 0.
 */
export function processCommands(ctx: ProcessCommandContext): CustomCommand[] {
  return [
    defineCommand('ps', async (args, c) => ps(args, ctx, runsInPlace(c.fs))),
    defineCommand('pgrep', async (args, c) => matching('pgrep', args, ctx, runsInPlace(c.fs))),
    defineCommand('pkill', async (args, c) => matching('pkill', args, ctx, runsInPlace(c.fs))),
  ];
}
