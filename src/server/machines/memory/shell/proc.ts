/**
 * The read-only `/proc` the shell engine shows a command (as just-bash's own filesystem would): `/proc/version`,
 * `/proc/mounts`, `/proc/cpuinfo`, `/proc/meminfo`, `/proc/loadavg`, `/proc/uptime`, `/proc/sys/kernel/*`, and `/proc/self/cmdline`,
 * `/proc/self/comm`, `/proc/self/environ`, `/proc/self/status`, `/proc/self/stat`, `/proc/self/limits`,
 * `/proc/self/exe`, `/proc/self/cwd`, `/proc/self/fd` of the process reading them: the command (`cat /proc/self/comm`
 * is `cat`, with a pid of its own, the shell its parent), or the script's shell for its builtins; `/proc/self` is a
 * link to that pid. The same under `/proc/PID` for the shell (`/proc/$$`) and the sprite's other processes (a job's
 * `/proc/$!`). It is not stored in the sprite's VFS (never in the fs API or a checkpoint) and holds no state;
 * `BashFs` serves it.
 * @see docs/fidelity.md "What the shell engine cannot do" (`/proc`), node_modules/just-bash (its `/proc` layout)
 */

import { currentLimits, MACHINE_ARCH, SPRITE_MACHINE } from './sysinfo-commands.ts';
import { processGroups, SPRITE_ACCOUNT } from '../accounts.ts';

/** A status line's four ids (real, effective, saved, filesystem): a sprite's processes hold one id in all four. */
const ids = (id: number): string => `${id}\t${id}\t${id}\t${id}`;

/** Another process of the sprite, as the process table shows it (`ps`'s view). */
export interface OtherProcess {
  ppid: number;
  /** Its command line, words joined by spaces. */
  args: string;
  /** Its program's name. */
  comm: string;
}

/** The virtual process `/proc/self` describes: its pid and parent pid (the sprite's), uid/gid of `sprite`. */
export interface ProcInfo {
  pid: number;
  ppid: number;
  /** The sprite's name, for `/proc/sys/kernel/hostname` (absent: no such file). */
  hostname?: string;
  /**
   * The command reading `/proc/self`: its name as run, its arguments, its program's path and the environment it
   * was given (absent: the shell). `inPlace` when it runs in the shell's own process (the last command of a
   * `bash -c` script, which bash execs without a fork): `/proc/$$` is then that command.
   */
  command?: {
    name: string;
    args: readonly string[];
    path: string;
    env?: Readonly<Record<string, string>>;
    inPlace?: boolean;
    /** The command's own pid, given out when something first asks for it (a forked process has one of its own). */
    pid?: OwnPid;
    /** Its parent's pid, when not the shell running it (a pipeline stage's command is the stage's process). */
    ppid?: number;
    /** The directory it runs in (the shell's when it started it). */
    cwd?: string;
    /** The variables of the shell that started it (its `ulimit`s, which the command inherits). */
    shellVariables?: ReadonlyMap<string, string>;
  };
  /** Seconds since the sprite's machine booted, for `/proc/uptime` (absent: no such file). */
  upSeconds?: () => number;
  /** The shell's own command line (`bash -c SCRIPT`) and the environment it started with (absent: `bash`, none). */
  shell?: { argv: readonly string[]; env: Readonly<Record<string, string>> };
  /** The sprite's other live processes by pid, and their pids (absent: `/proc/PID` is the shell's alone). */
  processes?: { get(pid: number): OtherProcess | undefined; pids(): number[] };
  /** Set on the view of another process (`/proc/$$` read by a command): no reader's own descriptor is listed. */
  other?: boolean;
  /** The pid of the subshell running the reader (its `$BASHPID`), when that is not the shell itself. */
  subshell?: number;
  /**
   * The shell's current directory, for `/proc/$$/cwd` read by a command it started (the command's own then; absent:
   * not known, no link — the interpreter tells each command its directory, not the filesystem the shell's).
   */
  cwd?: string;
  /** Gives a command the shell forks a pid of its own (absent: a command shows the shell's). */
  allocatePid?: () => number;
}

/** A pid handed out on first use: `get` allocates it, `known` tells it only once it was. */
export interface OwnPid {
  get(): number;
  known(): number | undefined;
}

/** A pid `allocate` gives out the first time it is asked for. */
export function lazyPid(allocate: () => number): OwnPid {
  let pid: number | undefined;
  return { get: () => (pid ??= allocate()), known: () => pid };
}

/** A pid known from the start. */
export const fixedPid = (pid: number): OwnPid => ({ get: () => pid, known: () => pid });

/** The pid of the process `info` describes: a command's own (unless it runs in the shell's process), else the shell's. */
function pidOf(info: ProcInfo): number {
  return info.command?.pid && !info.command.inPlace ? info.command.pid.get() : info.pid;
}

/** Its parent: the shell (or the subshell) that forked a command, else the shell's parent. */
function ppidOf(info: ProcInfo): number {
  return info.command?.pid && !info.command.inPlace ? (info.command.ppid ?? info.subshell ?? info.pid) : info.ppid;
}

/** The kernel keeps a task's name to 15 bytes (TASK_COMM_LEN less its NUL). */
const comm = (info: ProcInfo) => (info.command ? info.command.name.slice(info.command.name.lastIndexOf('/') + 1) : 'bash').slice(0, 15);

/** The kernel release `uname -r` and `/proc/sys/kernel/osrelease` give. */
export const KERNEL_RELEASE = '6.12.0-spritzer';
/** What `/proc/version` reads. */
export const PROC_VERSION = `Linux version ${KERNEL_RELEASE} (spritzer shell engine) #1 SMP\n`;

/**
 * The sprite's mounts as `/proc/mounts` lists them: its one ext4 disk on `/`, and the kernel's `/proc` and `/dev`.
 * @deviation The device name is spritzer's; what a real sprite calls its disk is not documented.
 */
export const MOUNTS: ReadonlyArray<{ source: string; target: string; type: string }> = [
  { source: '/dev/vda', target: '/', type: 'ext4' },
  { source: 'proc', target: '/proc', type: 'proc' },
  { source: 'devtmpfs', target: '/dev', type: 'devtmpfs' },
];
const MOUNTS_TEXT = MOUNTS.map((m) => `${m.source} ${m.target} ${m.type} rw,relatime 0 0\n`).join('');

const DIRS: Record<string, string[]> = {
  '/proc': ['cpuinfo', 'loadavg', 'meminfo', 'mounts', 'self', 'sys', 'uptime', 'version'],
  '/proc/self': ['cmdline', 'comm', 'cwd', 'environ', 'exe', 'fd', 'limits', 'mounts', 'stat', 'status'],
  // The reading process's descriptors: stdin, stdout, stderr, and the directory it opened to list them.
  '/proc/self/fd': ['0', '1', '2', '3'],
  '/proc/sys': ['kernel'],
  '/proc/sys/kernel': ['hostname', 'osrelease', 'ostype', 'pid_max'],
};

/** `/proc/cpuinfo`: one stanza per vCPU of the sprite's machine, in the layout of the host's architecture. */
const CPUINFO = Array.from({ length: SPRITE_MACHINE.cpus }, (_, n) =>
  MACHINE_ARCH === 'x86_64'
    ? `processor\t: ${n}\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\nmodel name\t: Intel(R) Xeon(R) Processor\nstepping\t: 7\ncpu MHz\t\t: 2500.000\ncache size\t: 36608 KB\nphysical id\t: 0\nsiblings\t: ${SPRITE_MACHINE.cpus}\ncore id\t\t: ${n}\ncpu cores\t: ${SPRITE_MACHINE.cpus}\nfpu\t\t: yes\nflags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx lm constant_tsc rep_good nopl xtopology cpuid pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt aes xsave avx f16c rdrand hypervisor lahf_lm abm avx2 bmi1 bmi2\nbogomips\t: 5000.00\naddress sizes\t: 46 bits physical, 48 bits virtual\n\n`
    : `processor\t: ${n}\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\nCPU revision\t: 1\n\n`,
).join('');

/** `/proc/meminfo`'s first fields, in kB (what `free` reads too). */
export const MEMINFO_KB = {
  MemTotal: SPRITE_MACHINE.memoryKiB,
  MemFree: Math.round(SPRITE_MACHINE.memoryKiB * 0.9),
  MemAvailable: Math.round(SPRITE_MACHINE.memoryKiB * 0.94),
  Buffers: 0,
  Cached: Math.round(SPRITE_MACHINE.memoryKiB * 0.04),
  SwapCached: 0,
  SwapTotal: 0,
  SwapFree: 0,
} as const;

/** `/proc/meminfo`'s first lines, as Linux pads them (label to 16 columns, value to 8). */
const MEMINFO = Object.entries(MEMINFO_KB).map(([k, v]) => `${`${k}:`.padEnd(16)}${String(v).padStart(8)} kB\n`).join('');

/**
 * `/proc/PID/…` as `/proc/self/…` of that process: the shell's own pid (`$$`) is the shell, a pid of the sprite's
 * process table (a background job's `$!`) is that process; `/proc/self/…` itself is the reader. Null for a path
 * that is neither (no `/proc` entry, or no such process).
 * @returns the `/proc/self` path and the process it describes
 */
export function procAlias(p: string, info: ProcInfo): { path: string; info: ProcInfo } | null {
  const m = /^\/proc\/(\d+)(\/.*)?$/.exec(p);
  if (!m) return { path: p, info };
  const pid = Number(m[1]);
  const path = `/proc/self${m[2] ?? ''}`;
  // The reader's own pid, once it has one (`/proc/self` links to it).
  if (pid === info.command?.pid?.known() && !info.command.inPlace) return { path, info };
  // The shell that started a command (not from a subshell, whose directory may differ) is where the command is.
  const here = info.command?.cwd !== undefined ? { cwd: info.command.cwd } : {};
  if (pid === info.pid) return { path, info: info.command?.inPlace ? info : { ...info, ...(info.subshell === undefined ? here : {}), command: undefined, other: info.command !== undefined } };
  // A subshell is a bash process of its own, forked by the shell.
  if (pid === info.subshell) return { path, info: { ...info, ...here, pid, ppid: info.pid, command: undefined, other: true } };
  const other = info.processes?.get(pid);
  if (!other) return null;
  const [name = other.comm, ...args] = other.args.split(' ');
  return { path, info: { ...info, pid, ppid: other.ppid, other: true, command: { name, args, path: `/usr/bin/${other.comm}` } } };
}

/**
 * Names in the `/proc` directory `p` (normalised) as the process `info` sees it, or null when `p` is not one:
 * `/proc` lists the sprite's pids too, `/proc/PID/fd` of another process its three standard descriptors.
 */
export function procDir(p: string, info: ProcInfo): string[] | null {
  const alias = procAlias(p, info);
  if (!alias) return null;
  const { path, info: who } = alias;
  if (path === '/proc') return [...DIRS['/proc']!, ...new Set([...(who.processes?.pids() ?? [who.pid]), ...(who.subshell ? [who.subshell] : [])])].map(String).sort();
  // Another process's descriptors are its stdin, stdout and stderr; a reader also has the directory it opened.
  if (path === '/proc/self/fd' && who.other) return ['0', '1', '2'];
  return DIRS[path] ?? null;
}

/**
 * The bytes of the `/proc` file `p` (normalised) for the process `info`, or null when `p` is not one.
 * `status` holds `Name`, `State`, `Tgid`, `Ngid`, `Pid`, `PPid`, `TracerPid`, `Uid`, `Gid`, `FDSize` and `Threads` (a
 * single-threaded process's 1) lines, in Linux's order and words; `cpuinfo` and `meminfo`
 * describe the sprite's machine (sysinfo-commands.ts `SPRITE_MACHINE`), `loadavg` an idle one, `uptime` the seconds
 * since boot and the idle seconds summed over the CPUs (an idle machine's: every CPU idle all along), 2 decimals each.
 * `comm`, `cmdline`, `environ` and `status` describe the reading command ({@link ProcInfo.command}), or the shell
 * (its command line and starting environment, {@link ProcInfo.shell}); `/proc/PID/…` those of the shell (`$$`) or
 * of another process of the sprite ({@link procAlias}).
 * @deviation Only these files exist (`/proc/self/fd/N` read as character devices, not links to what the
 * descriptor is); a subshell's `$BASHPID` has a `/proc` entry for the commands it runs, not for its builtins
 * (`[ -d /proc/$BASHPID ]`), and another process's `environ` is empty.
 */
export function procFile(path: string, reader: ProcInfo): Uint8Array | null {
  const alias = procAlias(path, reader);
  if (!alias) return null;
  const { path: p, info } = alias;
  const text = (s: string) => new TextEncoder().encode(s);
  switch (p) {
    case '/proc/version':
      return text(PROC_VERSION);
    case '/proc/mounts':
    case '/proc/self/mounts':
      return text(MOUNTS_TEXT);
    case '/proc/self/cmdline':
      return text(`${(info.command ? [info.command.name, ...info.command.args] : (info.shell?.argv ?? ['bash'])).join('\0')}\0`);
    case '/proc/self/environ': {
      const env = info.command ? info.command.env : info.shell?.env;
      return text(Object.entries(env ?? {}).map(([k, v]) => `${k}=${v}\0`).join(''));
    }
    case '/proc/cpuinfo':
      return text(CPUINFO);
    case '/proc/meminfo':
      return text(MEMINFO);
    case '/proc/loadavg':
      return text(`0.00 0.00 0.00 1/1 ${info.pid}\n`);
    case '/proc/uptime': {
      if (!info.upSeconds) return null;
      const up = Math.max(0, info.upSeconds());
      return text(`${up.toFixed(2)} ${(up * SPRITE_MACHINE.cpus).toFixed(2)}\n`);
    }
    case '/proc/sys/kernel/ostype':
      return text('Linux\n');
    case '/proc/sys/kernel/osrelease':
      return text(`${KERNEL_RELEASE}\n`);
    case '/proc/sys/kernel/hostname':
      return info.hostname === undefined ? null : text(`${info.hostname}\n`);
    case '/proc/sys/kernel/pid_max':
      return text('4194304\n');
    case '/proc/self/comm':
      return text(`${comm(info)}\n`);
    case '/proc/self/status':
      return text(
        `Name:\t${comm(info)}\nState:\t${info.other ? 'S (sleeping)' : 'R (running)'}\nTgid:\t${pidOf(info)}\nNgid:\t0\nPid:\t${pidOf(info)}\nPPid:\t${ppidOf(info)}\nTracerPid:\t0\n` +
          `Uid:\t${ids(SPRITE_ACCOUNT.uid)}\nGid:\t${ids(SPRITE_ACCOUNT.gid)}\nFDSize:\t64\nGroups:\t${processGroups(SPRITE_ACCOUNT).map((g) => `${g} `).join('')}\nThreads:\t1\n`,
      );
    case '/proc/self/stat':
      return text(statLine(info));
    case '/proc/self/limits':
      return text(limitsText(info.command?.shellVariables));
    default:
      return null;
  }
}

/**
 * The target of the `/proc` symbolic link `p` (normalised), or null when `p` is not one: `/proc/self/exe` is the
 * reading command's program (`/usr/bin/cat`; a sprite's `/bin` is `/usr/bin`), or the shell's, `/usr/bin/bash`;
 * `/proc/PID/exe` that process's (`reader` reads it).
 */
export function procLink(p: string, reader: ProcInfo): string | null {
  if (p === '/dev/fd') return '/proc/self/fd';
  if (p === '/proc/self') return String(pidOf(reader));
  const alias = procAlias(p, reader);
  if (alias?.path === '/proc/self/cwd') return (alias.info.other ? undefined : alias.info.command?.cwd) ?? alias.info.cwd ?? null;
  if (!alias || alias.path !== '/proc/self/exe') return null;
  const program = alias.info.command?.path ?? '/usr/bin/bash';
  return program.startsWith('/bin/') ? `/usr${program}` : program;
}

/**
 * `/proc/PID/stat`'s one line (proc(5)): pid, `(comm)`, state (R for the reader, S for a process waiting on it),
 * ppid, process group and session (the shell's), no terminal, then the counters of a process that has just
 * started (none of its own time yet, one thread, its start a little after boot), the exit signal SIGCHLD (17).
 * @deviation The memory figures are a small process's, not measured.
 */
function statLine(info: ProcInfo): string {
  const pid = pidOf(info);
  const fields = [
    pid, `(${comm(info)})`, info.other ? 'S' : 'R', ppidOf(info), info.pid, info.pid, 0, -1, 4194304,
    // minflt cminflt majflt cmajflt utime stime cutime cstime priority nice num_threads itrealvalue starttime
    100, 0, 0, 0, 0, 0, 0, 0, 20, 0, 1, 0, Math.floor(Math.max(0, info.upSeconds?.() ?? 0) * 100),
    // vsize rss rsslim startcode endcode startstack kstkesp kstkeip signal blocked sigignore sigcatch wchan nswap cnswap
    8192000, 400, '18446744073709551615', 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    // exit_signal processor rt_priority policy delayacct_blkio_ticks guest_time cguest_time start_data end_data
    17, 0, 0, 0, 0, 0, 0, 0, 0,
    // start_brk arg_start arg_end env_start env_end exit_code
    0, 0, 0, 0, 0, 0,
  ];
  return `${fields.join(' ')}\n`;
}

/** `/proc/self/limits`' rows: its label, the `ulimit` option it is, the factor to its unit (bytes from KiB) and unit. */
const LIMIT_ROWS: ReadonlyArray<[string, string, number, string]> = [
  ['Max cpu time', 't', 1, 'seconds'],
  ['Max file size', 'f', 1024, 'bytes'],
  ['Max data size', 'd', 1024, 'bytes'],
  ['Max stack size', 's', 1024, 'bytes'],
  ['Max core file size', 'c', 1024, 'bytes'],
  ['Max resident set', 'm', 1024, 'bytes'],
  ['Max processes', 'u', 1, 'processes'],
  ['Max open files', 'n', 1, 'files'],
  ['Max locked memory', 'l', 1024, 'bytes'],
  ['Max address space', 'v', 1024, 'bytes'],
  ['Max file locks', 'x', 1, 'locks'],
  ['Max pending signals', 'i', 1, 'signals'],
  ['Max msgqueue size', 'q', 1, 'bytes'],
  ['Max nice priority', 'e', 1, ''],
  ['Max realtime priority', 'r', 1, ''],
  ['Max realtime timeout', 'R', 1, 'us'],
];

/**
 * `/proc/PID/limits` as Linux prints it (fs/proc/base.c proc_pid_limits: `%-25s %-20s %-20s %-10s`, a unit-less row
 * ending after its hard limit's padding): the limits of the shell that started the reader, as its `ulimit`s left
 * them (`shellVariables`; without them, the defaults), in bytes where `ulimit` counts KiB or 1024-byte blocks.
 */
function limitsText(shellVariables: ReadonlyMap<string, string> | undefined): string {
  const limits = currentLimits(shellVariables ?? new Map());
  const value = (v: string | undefined, factor: number) => (v === undefined || v === 'unlimited' ? 'unlimited' : String(BigInt(v) * BigInt(factor)));
  const rows = LIMIT_ROWS.map(([label, opt, factor, unit]) => {
    const l = limits.get(opt);
    const start = `${label.padEnd(25)} ${value(l?.soft, factor).padEnd(20)} ${value(l?.hard, factor).padEnd(20)} `;
    return `${unit ? start + unit.padEnd(10) : start}\n`;
  });
  return `${'Limit'.padEnd(25)} ${'Soft Limit'.padEnd(20)} ${'Hard Limit'.padEnd(20)} ${'Units'.padEnd(10)}\n${rows.join('')}`;
}
