/**
 * What a script asks about the machine, for the `shell` engine: `nproc`, `getconf`, `ulimit`, `locale`, `arch`,
 * `logname` and `getent`, answering for a sprite's machine (8 vCPUs, 8192 MB, Ubuntu's defaults) as GNU coreutils,
 * glibc's tools and bash print them. `ulimit` keeps each shell's own limits.
 * @see https://www.gnu.org/software/coreutils/manual/ (nproc, arch), getconf(1), locale(1), getent(1), logname(1);
 *   bash's manual "Bash Builtins" (ulimit); docs/wire-reference.md (a sprite's resources)
 */
import { defineCommand, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';
import { localeQuote } from './gnu-quote.ts';
import { GETCONF_TABLE } from './getconf-table.ts';
import { CHARMAPS, LOCALE_KEYWORDS } from './locale-table.ts';

const HINT = 'run spritzer with --exec sandbox';
const ok = (stdout: string): ExecResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, exitCode = 1): ExecResult => ({ stdout: '', stderr, exitCode });

/**
 * The machine a sprite runs on, as its documentation gives it: 8 vCPUs and 8192 MB (not configurable).
 * @deviation The limits below (`ulimit`, `getconf`) are an Ubuntu VM's defaults; production's are not documented.
 */
export const SPRITE_MACHINE = { cpus: 8, memoryKiB: 8192 * 1024, pageSize: 4096 } as const;

/** The machine name `uname -m` and `arch` print: the host's architecture, as a sprite on it would have. */
export const MACHINE_ARCH = process.arch === 'arm64' ? 'aarch64' : 'x86_64';

/**
 * An OpenMP thread count as gnulib's nproc reads `OMP_NUM_THREADS` and `OMP_THREAD_LIMIT`: blanks, digits, then
 * only blanks or a comma (the first of a list); 0 or anything else counts as unset.
 */
function ompCount(value: string | undefined): number {
  const m = /^\s*(\d+)\s*(?:,|$)/.exec(value ?? '');
  return m ? Number(m[1]) : 0;
}

/**
 * `nproc [--all] [--ignore=N]`: the sprite's CPUs, less N, never below 1 (GNU nproc). Without `--all` the count
 * is `OMP_NUM_THREADS` when set, at most `OMP_THREAD_LIMIT`, as GNU's manual ("nproc invocation") says.
 */
function nproc(args: string[], env: Map<string, string>): ExecResult {
  let ignore = 0;
  let all = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--all') {
      all = true;
      continue;
    }
    const m = /^--ignore(?:=(.*))?$/.exec(a);
    if (m) {
      const v = m[1] ?? args[++i];
      if (v === undefined) return fail("nproc: option '--ignore' requires an argument\nTry 'nproc --help' for more information.\n");
      if (!/^\d+$/.test(v)) return fail(`nproc: invalid number: '${v}'\n`);
      ignore = Number(v);
      continue;
    }
    if (a === '--help' || a === '--version') return fail(`nproc: option ${a} is not available in the shell engine; ${HINT}\n`, 2);
    if (a.startsWith('-')) return fail(`nproc: unrecognized option '${a}'\nTry 'nproc --help' for more information.\n`);
    return fail(`nproc: extra operand ${localeQuote(env, a)}\nTry 'nproc --help' for more information.\n`);
  }
  let count: number = SPRITE_MACHINE.cpus;
  if (!all) {
    count = ompCount(env.get('OMP_NUM_THREADS')) || count;
    const limit = ompCount(env.get('OMP_THREAD_LIMIT'));
    if (limit > 0) count = Math.min(count, limit);
  }
  return ok(`${ignore < count ? count - ignore : 1}\n`);
}

/** The system variables `getconf NAME` answers (glibc's names and values on a 64-bit Linux). */
const SYSTEM_VARS: Record<string, string> = {
  PAGESIZE: String(SPRITE_MACHINE.pageSize),
  PAGE_SIZE: String(SPRITE_MACHINE.pageSize),
  LONG_BIT: '64',
  WORD_BIT: '32',
  ARG_MAX: '2097152',
  CHILD_MAX: '31542',
  OPEN_MAX: '1024',
  CLK_TCK: '100',
  LINE_MAX: '2048',
  HOST_NAME_MAX: '64',
  LOGIN_NAME_MAX: '256',
  INT_MAX: '2147483647',
  INT_MIN: '-2147483648',
  UINT_MAX: '4294967295',
  CHAR_BIT: '8',
  _NPROCESSORS_ONLN: String(SPRITE_MACHINE.cpus),
  _NPROCESSORS_CONF: String(SPRITE_MACHINE.cpus),
  _PHYS_PAGES: String((SPRITE_MACHINE.memoryKiB * 1024) / SPRITE_MACHINE.pageSize),
  // What /proc/meminfo's MemAvailable gives (proc.ts).
  _AVPHYS_PAGES: String(Math.round(SPRITE_MACHINE.memoryKiB * 0.94) * 1024 / SPRITE_MACHINE.pageSize),
  GNU_LIBC_VERSION: 'glibc 2.42',
  GNU_LIBPTHREAD_VERSION: 'NPTL 2.42',
  // confstr's _CS_PATH: the directories where every POSIX utility is found.
  PATH: '/bin:/usr/bin',
};
/** The path variables `getconf NAME PATH` answers (ext4's). */
const PATH_VARS: Record<string, string> = { PATH_MAX: '4096', NAME_MAX: '255', PIPE_BUF: '4096', LINK_MAX: '65000', FILESIZEBITS: '64', SYMLINK_MAX: '' };
const GETCONF_USAGE = 'Usage: getconf [-v specification] variable_name [pathname]\n       getconf -a [pathname]\n';

/** A system variable's value: the machine's own ({@link SYSTEM_VARS}), else glibc's on the reference host. */
const systemVar = (name: string) => SYSTEM_VARS[name] ?? GETCONF_TABLE.find(([n, , path]) => n === name && !path)?.[1];
/** A path variable's value ('' when it has none), or undefined when `name` is not one. */
const pathVar = (name: string) => PATH_VARS[name] ?? GETCONF_TABLE.find(([n, , path]) => n === name && path)?.[1];

/**
 * `getconf [-v SPEC] NAME [PATH]` and `getconf -a [PATH]`, as glibc's getconf prints them: `-a` lists every variable
 * (name padded to 35 columns, then its value; a path variable's for PATH). A specification of `-v` changes nothing
 * on a 64-bit Linux (glibc accepts any).
 */
async function getconf(args: string[], fs: IFileSystem, cwd: string): Promise<ExecResult> {
  if (args[0] === '-v') args = args.slice(2);
  else if (args[0]?.startsWith('-v')) args = args.slice(1);
  if (args[0] === '-a') {
    const [, path, extra] = args;
    if (extra !== undefined) return fail(GETCONF_USAGE, 2);
    if (path !== undefined && !(await fs.exists(fs.resolvePath(cwd, path)))) return fail(`getconf: ${path}: No such file or directory\n`);
    return ok(GETCONF_TABLE.map(([name, value, isPath]) => `${name.padEnd(35)}${(isPath ? PATH_VARS[name] : SYSTEM_VARS[name]) ?? value}\n`).join(''));
  }
  const [name, path, extra] = args;
  if (name === undefined || extra !== undefined) return fail(GETCONF_USAGE, 2);
  if (path === undefined) {
    const v = systemVar(name);
    if (v !== undefined) return ok(`${v}\n`);
    return fail(pathVar(name) !== undefined ? GETCONF_USAGE : `getconf: Unrecognized variable \`${name}'\n`, 2);
  }
  const v = pathVar(name);
  if (v === undefined) return fail(systemVar(name) !== undefined ? GETCONF_USAGE : `getconf: Unrecognized variable \`${name}'\n`, 2);
  if (!(await fs.exists(fs.resolvePath(cwd, path)))) return fail(`getconf: ${path}: No such file or directory\n`);
  return ok(v === '' ? 'undefined\n' : `${v}\n`);
}

/** One resource bash's `ulimit` knows: its option, `-a` label, unit, soft and hard values (`unlimited` or a number). */
interface Limit { opt: string; label: string; unit: string; soft: string; hard: string }
/** Ubuntu's defaults, in `ulimit -a` order (bash 5.2). */
const LIMITS: readonly Limit[] = [
  { opt: 'R', label: 'real-time non-blocking time', unit: 'microseconds', soft: 'unlimited', hard: 'unlimited' },
  { opt: 'c', label: 'core file size', unit: 'blocks', soft: '0', hard: 'unlimited' },
  { opt: 'd', label: 'data seg size', unit: 'kbytes', soft: 'unlimited', hard: 'unlimited' },
  { opt: 'e', label: 'scheduling priority', unit: '', soft: '0', hard: '0' },
  { opt: 'f', label: 'file size', unit: 'blocks', soft: 'unlimited', hard: 'unlimited' },
  { opt: 'i', label: 'pending signals', unit: '', soft: '31542', hard: '31542' },
  { opt: 'l', label: 'max locked memory', unit: 'kbytes', soft: '8192', hard: '8192' },
  { opt: 'm', label: 'max memory size', unit: 'kbytes', soft: 'unlimited', hard: 'unlimited' },
  { opt: 'n', label: 'open files', unit: '', soft: '1024', hard: '1048576' },
  { opt: 'p', label: 'pipe size', unit: '512 bytes', soft: '8', hard: '8' },
  { opt: 'q', label: 'POSIX message queues', unit: 'bytes', soft: '819200', hard: '819200' },
  { opt: 'r', label: 'real-time priority', unit: '', soft: '0', hard: '0' },
  { opt: 's', label: 'stack size', unit: 'kbytes', soft: '8192', hard: 'unlimited' },
  { opt: 't', label: 'cpu time', unit: 'seconds', soft: 'unlimited', hard: 'unlimited' },
  { opt: 'u', label: 'max user processes', unit: '', soft: '31542', hard: '31542' },
  { opt: 'v', label: 'virtual memory', unit: 'kbytes', soft: 'unlimited', hard: 'unlimited' },
  { opt: 'x', label: 'file locks', unit: '', soft: 'unlimited', hard: 'unlimited' },
];

/** The `-a` line of a limit, as bash's `printone` formats it: `%-20s %20s` of the label and `(unit, -X) `, then the value. */
function limitLine(l: Limit, hard: boolean): string {
  const tag = l.unit ? `(${l.unit}, -${l.opt}) ` : `(-${l.opt}) `;
  return `${l.label.padEnd(20)} ${tag.padStart(20)}${hard ? l.hard : l.soft}\n`;
}

/** The shell variable holding this shell's changed limits (`OPT:SOFT:HARD` words): a subshell's copy is its own, a child shell gets a copy. */
export const ULIMIT_VARIABLE = '__spritzer_ulimit';

/** A limit's value as a number (`unlimited` is Infinity), for comparing. */
const magnitude = (v: string) => (v === 'unlimited' ? Infinity : Number(v));

/** This shell's soft and hard value of each limit: the defaults, as changed by earlier `ulimit`s of this shell. */
export function currentLimits(env: ReadonlyMap<string, string>): Map<string, { soft: string; hard: string }> {
  const now = new Map(LIMITS.map((l) => [l.opt, { soft: l.soft, hard: l.hard }]));
  for (const word of (env.get(ULIMIT_VARIABLE) ?? '').split(' ')) {
    const [opt, soft, hard] = word.split(':');
    if (opt && soft && hard && now.has(opt)) now.set(opt, { soft, hard });
  }
  return now;
}

/**
 * bash's `ulimit [-SH] [-a] [-X [VALUE]]...`: each resource option prints its limit (soft unless `-H`; with a label
 * when the line names more than one) or, followed by a VALUE (a number, `unlimited`, `soft` or `hard`), sets it:
 * both limits, or the soft (`-S`) or hard (`-H`) one alone; an operand before any option is `-f`'s. The limits are
 * this shell's (a subshell's changes end with it), as the kernel checks them for an unprivileged user: a hard limit
 * is never raised ("Operation not permitted"), a soft one never above the hard one ("Invalid argument"), and an
 * unlimited soft limit alone means the hard one. The pipe size is fixed.
 * A child shell (`bash -c`) inherits them, as a process inherits its parent's; the variable that holds them is
 * the engine's own, which no listing shows (patches/just-bash/unlisted-internal-variables.mjs).
 * @deviation The limits bind nothing here (no process is limited).
 */
async function ulimit(args: string[], env: Map<string, string>, assign: ((name: string, value: string) => void | Promise<void>) | undefined): Promise<ExecResult> {
  let soft = false;
  let hard = false;
  let all = false;
  const steps: Array<{ limit: Limit; value?: string }> = [];
  let optionsEnd = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--' && !optionsEnd) {
      optionsEnd = true;
      continue;
    }
    // bash's getopt: a word of `-` and more is options (`-1` too) until `--`; any other word is the value of the
    // option before it (or of -f), and a later one is ignored.
    if (optionsEnd || !a.startsWith('-') || a === '-') {
      if (steps.length === 0) steps.push({ limit: LIMITS.find((l) => l.opt === 'f')!, value: a });
      else if (steps[steps.length - 1]!.value === undefined) steps[steps.length - 1]!.value = a;
      continue;
    }
    for (const c of a.slice(1)) {
      if (c === 'H') hard = true;
      else if (c === 'S') soft = true;
      else if (c === 'a') all = true;
      else {
        const l = LIMITS.find((x) => x.opt === c);
        if (!l) return fail(`bash: ulimit: -${c}: invalid option\nulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]\n`, 2);
        steps.push({ limit: l });
      }
    }
  }
  const now = currentLimits(env);
  const shown = (l: Limit) => (soft || !hard ? now.get(l.opt)!.soft : now.get(l.opt)!.hard);
  if (all) return ok(LIMITS.map((l) => limitLine({ ...l, soft: shown(l), hard: shown(l) }, false)).join(''));
  if (steps.length === 0) steps.push({ limit: LIMITS.find((l) => l.opt === 'f')! });
  let out = '';
  let err = '';
  let status = 0;
  const root = env.get('EUID') === '0';
  for (const { limit, value } of steps) {
    const cur = now.get(limit.opt)!;
    if (value === undefined) {
      out += steps.length > 1 ? limitLine({ ...limit, soft: shown(limit) }, false) : `${shown(limit)}\n`;
      continue;
    }
    if (!/^(\d+|unlimited|hard|soft)$/.test(value)) {
      err += `bash: ulimit: ${value}: invalid number\n`;
      status = 1;
      continue;
    }
    const both = !soft && !hard;
    let wanted = value === 'hard' ? cur.hard : value === 'soft' ? cur.soft : value.replace(/^0+(?=\d)/, '');
    // bash: an unprivileged user's unlimited soft limit is the hard limit.
    if (!root && wanted === 'unlimited' && !(hard || both)) wanted = cur.hard;
    const next = { soft: soft || both ? wanted : cur.soft, hard: hard || both ? wanted : cur.hard };
    const errno = limit.opt === 'p' || magnitude(next.soft) > magnitude(next.hard) ? 'Invalid argument' : !root && magnitude(next.hard) > magnitude(cur.hard) ? 'Operation not permitted' : '';
    if (errno) {
      err += `bash: ulimit: ${limit.label}: cannot modify limit: ${errno}\n`;
      status = 1;
      continue;
    }
    now.set(limit.opt, next);
  }
  const changed = LIMITS.filter((l) => now.get(l.opt)!.soft !== l.soft || now.get(l.opt)!.hard !== l.hard);
  const record = changed.map((l) => `${l.opt}:${now.get(l.opt)!.soft}:${now.get(l.opt)!.hard}`).join(' ');
  if (record !== (env.get(ULIMIT_VARIABLE) ?? '')) await assign?.(ULIMIT_VARIABLE, record);
  return { stdout: out, stderr: err, exitCode: status };
}

/** The locale categories `locale` lists, in its order. */
const CATEGORIES = ['LC_CTYPE', 'LC_NUMERIC', 'LC_TIME', 'LC_COLLATE', 'LC_MONETARY', 'LC_MESSAGES', 'LC_PAPER', 'LC_NAME', 'LC_ADDRESS', 'LC_TELEPHONE', 'LC_MEASUREMENT', 'LC_IDENTIFICATION'];
/** The locales a sprite has (`locale -a`). */
const LOCALES = ['C', 'C.utf8', 'POSIX'];

/** The `locale -k` lines of `category` in the locale `name` (a sprite has C.UTF-8 and C; others count as C). */
const keywordLines = (name: string, category: string) =>
  LOCALE_KEYWORDS[/utf-?8/i.test(name) ? 'C.UTF-8' : 'C'][category]!.split('\n').filter(Boolean);

/**
 * `locale`, `locale -a`, `locale -m` and `locale [-c] [-k] NAME...`, as glibc prints them. A NAME is a category
 * (all its keywords) or a keyword; `-k` prints `keyword=value` (strings quoted), `-c` the category's name first.
 * Bare `locale`: a category's value is `LC_ALL`, else its own variable (printed unquoted), else `LANG`, else
 * `POSIX` (derived values are quoted).
 */
function locale(args: string[], env: Map<string, string>): ExecResult {
  const get = (k: string) => env.get(k) || undefined;
  const effective = (cat: string) => get('LC_ALL') ?? get(cat) ?? get('LANG') ?? 'POSIX';
  if (args.length === 0) {
    const lines = [`LANG=${env.get('LANG') ?? ''}`, `LANGUAGE=${env.get('LANGUAGE') ?? ''}`];
    for (const cat of CATEGORIES) lines.push(get('LC_ALL') === undefined && get(cat) !== undefined ? `${cat}=${get(cat)}` : `${cat}="${effective(cat)}"`);
    lines.push(`LC_ALL=${env.get('LC_ALL') ?? ''}`);
    return ok(`${lines.join('\n')}\n`);
  }
  let categoryName = false;
  let keywordName = false;
  const names: string[] = [];
  const flags = new Set<string>();
  for (const a of args) {
    if (a === '--all-locales') flags.add('a');
    else if (a === '--charmaps') flags.add('m');
    else if (a === '--category-name') flags.add('c');
    else if (a === '--keyword-name') flags.add('k');
    else if (a === '--verbose') flags.add('v');
    else if (/^-[amckv]+$/.test(a)) for (const c of a.slice(1)) flags.add(c);
    else if (a.startsWith('-') && a !== '-') return fail(`locale: option ${a} is not available in the shell engine; ${HINT}\n`, 2);
    else names.push(a);
  }
  if (flags.has('a')) return ok(`${LOCALES.join('\n')}\n`);
  if (flags.has('m')) return ok(`${CHARMAPS.join('\n')}\n`);
  categoryName = flags.has('c');
  keywordName = flags.has('k');
  // A value as `locale KEYWORD` prints it: unquoted, a list's items joined by ';'.
  const bare = (value: string) => (value.startsWith('"') ? value.slice(1, -1).replaceAll('";"', ';') : value);
  let out = '';
  let err = '';
  for (const name of names) {
    if (CATEGORIES.includes(name)) {
      const lines = keywordLines(effective(name), name);
      out += (categoryName ? `${name}\n` : '') + lines.map((l) => `${keywordName ? l : bare(l.slice(l.indexOf('=') + 1))}\n`).join('');
      continue;
    }
    const hit = CATEGORIES.map((cat) => [cat, keywordLines(effective(cat), cat).find((l) => l.startsWith(`${name}=`))] as const).find(([, l]) => l);
    if (!hit) {
      err += `locale: unknown name "${name}"\n`;
      continue;
    }
    const [cat, line] = hit;
    out += (categoryName ? `${cat}\n` : '') + `${keywordName ? line : bare(line!.slice(name.length + 1))}\n`;
  }
  return { stdout: out, stderr: err, exitCode: err ? 1 : 0 };
}

/** The databases `getent` reads, from the sprite's own `/etc` files. */
const DATABASES: Record<string, string> = { passwd: '/etc/passwd', group: '/etc/group', hosts: '/etc/hosts', ahosts: '/etc/hosts' };
/** Databases a sprite's glibc has that the shell engine does not answer (loud, never `Unknown database`). */
const REFUSED_DATABASES = new Set(['ahostsv4', 'ahostsv6', 'services', 'protocols', 'networks', 'shadow', 'gshadow', 'initgroups', 'netgroup', 'ethers', 'rpc']);

/**
 * `getent DATABASE [KEY...]` over the sprite's `/etc/passwd`, `/etc/group` and `/etc/hosts`: a key is a name or a
 * numeric id (passwd, group) or a host name or address (hosts, printed as `ADDRESS<spaces>NAMES`, IPv6 first as
 * glibc's `gethostbyname2` tries it). Exit 2 when a key is not found, 1 for an unknown database, 0 otherwise.
 */
async function getent(args: string[], fs: IFileSystem): Promise<ExecResult> {
  const [db, ...keys] = args;
  if (db === undefined) return fail("getent: wrong number of arguments\nTry 'getent --help' or 'getent --usage' for more information.\n");
  const file = DATABASES[db];
  if (REFUSED_DATABASES.has(db)) return fail(`getent: the ${db} database is not available in the shell engine; ${HINT}\n`, 2);
  if (!file) return fail(db.startsWith('-') ? `getent: option ${db} is not available in the shell engine; ${HINT}\n` : `Unknown database: ${db}\nTry 'getent --help' or 'getent --usage' for more information.\n`, db.startsWith('-') ? 2 : 1);
  const text = (await fs.exists(file)) ? await fs.readFile(file) : '';
  const lines = text.split('\n').filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  if (db === 'hosts') return hosts(lines, keys);
  if (db === 'ahosts') return addressInfo(lines, keys);
  if (keys.length === 0) return ok(lines.map((l) => `${l}\n`).join(''));
  let out = '';
  let missing = false;
  for (const key of keys) {
    const byId = /^\d+$/.test(key);
    const hit = lines.find((l) => {
      const f = l.split(':');
      return byId ? f[2] === key : f[0] === key;
    });
    if (hit) out += `${hit}\n`;
    else missing = true;
  }
  return { stdout: out, stderr: '', exitCode: missing ? 2 : 0 };
}

/** Whether a hosts key is an address rather than a name. */
const isAddress = (key: string) => /^[\d.]+$/.test(key) || key.includes(':');

/** `getent hosts [KEY...]` over `/etc/hosts` lines. */
function hosts(lines: string[], keys: string[]): ExecResult {
  const entries = lines.map((l) => l.replace(/#.*/, '').trim().split(/\s+/)).filter((f) => f.length >= 2);
  const line = (f: string[]) => `${f[0]!.padEnd(15)} ${f.slice(1).join(' ')}\n`;
  if (keys.length === 0) return ok(entries.map(line).join(''));
  let out = '';
  let missing = false;
  for (const key of keys) {
    const matches = entries.filter((f) => f[0] === key || f.slice(1).includes(key));
    // glibc asks for IPv6 first: a name with an IPv6 entry answers with it alone.
    const v6 = matches.find((f) => f[0]!.includes(':'));
    const hit = isAddress(key) ? matches.find((f) => f[0] === key) : (v6 ?? matches[0]);
    if (hit) out += line(hit);
    else missing = true;
  }
  return { stdout: out, stderr: '', exitCode: missing ? 2 : 0 };
}

/**
 * `getent ahosts KEY...`: glibc's getaddrinfo answer over `/etc/hosts`, IPv6 addresses first (RFC 6724's order for
 * loopback), each address three times (`STREAM`, `DGRAM`, `RAW` sockets) with the canonical name (the first name of
 * the first entry, or a numeric key itself) on its first line only. Exit 2 when a key is not found. Without a key
 * glibc enumerates nothing useful: refused loudly.
 */
function addressInfo(lines: string[], keys: string[]): ExecResult {
  if (keys.length === 0) return fail(`getent: ahosts without a key is not available in the shell engine; ${HINT}\n`, 2);
  const entries = lines.map((l) => l.replace(/#.*/, '').trim().split(/\s+/)).filter((f) => f.length >= 2);
  let out = '';
  let missing = false;
  for (const key of keys) {
    const matches = isAddress(key) ? [[key, key]] : entries.filter((f) => f.slice(1).includes(key));
    if (matches.length === 0) {
      missing = true;
      continue;
    }
    const addresses = [...new Set([...matches.filter((f) => f[0]!.includes(':')), ...matches.filter((f) => !f[0]!.includes(':'))].map((f) => f[0]!))];
    let canonical = isAddress(key) ? key : matches[0]![1]!;
    for (const address of addresses) {
      for (const socket of ['STREAM', 'DGRAM', 'RAW']) {
        out += `${address.padEnd(15)} ${socket.padEnd(6)} ${canonical}\n`;
        canonical = '';
      }
    }
  }
  return { stdout: out, stderr: '', exitCode: missing ? 2 : 0 };
}

/** Names of the commands of {@link sysinfoCommands} (each needs its `/bin` stub to be found on PATH). */
export const SYSINFO_COMMAND_NAMES: readonly string[] = ['nproc', 'getconf', 'ulimit', 'locale', 'arch', 'logname', 'getent', 'dpkg'];

/**
 * `dpkg --print-architecture` (Debian's name for the machine: amd64, arm64), the one question install scripts ask
 * dpkg; `--print-foreign-architectures` lists none. Anything else (installing, querying packages) needs a real
 * package database: refused loudly, exit 127, as for every program the shell engine does not run.
 * @see dpkg(1)
 */
function dpkg(args: string[]): ExecResult {
  const [action, ...rest] = args;
  if (action === '--print-architecture' || action === '--print-foreign-architectures') {
    if (rest.length > 0) return fail(`dpkg: error: ${action} takes no arguments\n\nType dpkg --help for help about installing and deinstalling packages [*];\nUse 'apt' or 'aptitude' for user-friendly package management;\nType dpkg -Dhelp for a list of dpkg debug flag values;\nType dpkg --force-help for a list of forcing options;\nType dpkg-deb --help for help about manipulating *.deb files;\n\nOptions marked [*] produce a lot of output - pipe it through 'less' or 'more' !\n`, 2);
    return ok(action === '--print-architecture' ? `${MACHINE_ARCH === 'aarch64' ? 'arm64' : 'amd64'}\n` : '');
  }
  return fail(`dpkg: not available in the shell engine (only --print-architecture); ${HINT}\n`, 127);
}

/** The commands of this module, for just-bash's `customCommands`. */
export function sysinfoCommands(): CustomCommand[] {
  return [
    defineCommand('nproc', async (args, ctx) => nproc(args, ctx.env)),
    defineCommand('getconf', async (args, ctx) => getconf(args, ctx.fs, ctx.cwd)),
    defineCommand('ulimit', async (args, ctx) => ulimit(args, ctx.env, ctx.assignShellVariable)),
    defineCommand('locale', async (args, ctx) => locale(args, ctx.env)),
    defineCommand('arch', async (args) => (args.length === 0 ? ok(`${MACHINE_ARCH}\n`) : fail(`arch: extra operand '${args[0]}'\nTry 'arch --help' for more information.\n`))),
    // An exec has no controlling terminal, so no login name: GNU logname's answer then.
    defineCommand('logname', async () => fail('logname: no login name\n')),
    defineCommand('getent', async (args, ctx) => getent(args, ctx.fs)),
    defineCommand('dpkg', async (args) => dpkg(args)),
  ];
}
