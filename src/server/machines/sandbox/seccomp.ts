/**
 * The seccomp filter of every sandbox sprite: a classic BPF program (struct sock_filter[], as `bwrap --seccomp FD`
 * loads it) that denies the system calls no sprite needs and that reach past its namespaces: file handles
 * (`open_by_handle_at` opened the host's `/` from a sprite that held CAP_DAC_READ_SEARCH), kernel modules and kexec,
 * the kernel keyring (not namespaced), every mount API, BPF, perf events, userfaultfd, io_uring, reboot, swap,
 * the clocks, accounting and quotas, and any ABI but the host's native one (x32 and i386 on x86_64). It generates
 * bytes only; the launcher passes them to bubblewrap.
 * @see docs/sandbox.md "Seccomp", seccomp(2), linux/filter.h, Docker's default profile (moby/profiles seccomp)
 */

/** A system call the filter denies (with EPERM), by its name. */
export const DENIED_SYSCALLS: readonly string[] = [
  'open_by_handle_at', 'name_to_handle_at',
  'kexec_load', 'kexec_file_load', 'init_module', 'finit_module', 'delete_module',
  'keyctl', 'add_key', 'request_key',
  'mount', 'umount2', 'pivot_root', 'move_mount', 'open_tree', 'fsopen', 'fsconfig', 'fsmount', 'fspick', 'mount_setattr',
  'bpf', 'perf_event_open', 'userfaultfd', 'io_uring_setup', 'io_uring_enter', 'io_uring_register',
  'reboot', 'swapon', 'swapoff', 'settimeofday', 'clock_settime', 'clock_adjtime',
  'acct', 'quotactl', 'lookup_dcookie', 'vhangup',
];

/** One architecture: its `AUDIT_ARCH_*` value and the numbers of the denied calls. */
interface Arch {
  audit: number;
  /** Syscall numbers with this bit set belong to another ABI on the same arch (x32 on x86_64). */
  foreignBit?: number;
  numbers: Record<string, number>;
}

/** From the kernel's syscall tables (arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/asm-generic/unistd.h). */
const ARCHES: Record<string, Arch> = {
  x64: {
    audit: 0xc000003e,
    foreignBit: 0x40000000,
    numbers: {
      open_by_handle_at: 304, name_to_handle_at: 303, kexec_load: 246, kexec_file_load: 320, init_module: 175, finit_module: 313,
      delete_module: 176, keyctl: 250, add_key: 248, request_key: 249, mount: 165, umount2: 166, pivot_root: 155, move_mount: 429,
      open_tree: 428, fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433, mount_setattr: 442, bpf: 321, perf_event_open: 298,
      userfaultfd: 323, io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427, reboot: 169, swapon: 167, swapoff: 168,
      settimeofday: 164, clock_settime: 227, clock_adjtime: 305, acct: 163, quotactl: 179, lookup_dcookie: 212, vhangup: 153,
    },
  },
  arm64: {
    audit: 0xc00000b7,
    numbers: {
      open_by_handle_at: 265, name_to_handle_at: 264, kexec_load: 104, kexec_file_load: 294, init_module: 105, finit_module: 273,
      delete_module: 106, keyctl: 219, add_key: 217, request_key: 218, mount: 40, umount2: 39, pivot_root: 41, move_mount: 429,
      open_tree: 428, fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433, mount_setattr: 442, bpf: 280, perf_event_open: 241,
      userfaultfd: 282, io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427, reboot: 142, swapon: 224, swapoff: 225,
      settimeofday: 170, clock_settime: 112, clock_adjtime: 266, acct: 89, quotactl: 60, lookup_dcookie: 18, vhangup: 58,
    },
  },
};

// linux/filter.h and linux/seccomp.h
const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JSET_K = 0x45;
const BPF_RET_K = 0x06;
const SECCOMP_RET_KILL_PROCESS = 0x80000000;
const SECCOMP_RET_ERRNO = 0x00050000;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const EPERM = 1;
const ENOSYS = 38;
/** Offsets in struct seccomp_data. */
const NR = 0;
const ARCH = 4;

type Insn = [code: number, jt: number, jf: number, k: number];

/**
 * The filter for `arch` (a `process.arch` value; default this host's) as bytes of struct sock_filter (8 bytes each,
 * little-endian): a call of another ABI kills the process (x86_64's x32 numbers get ENOSYS, as on a kernel without
 * x32), a DENIED_SYSCALLS call fails with EPERM, everything else is allowed. Throws for an architecture it has no
 * table for (the sandbox engine then refuses to start, naming it).
 */
export function seccompFilter(arch: string = process.arch): Buffer {
  const a = ARCHES[arch];
  if (!a) throw new Error(`the sandbox engine's seccomp filter has no syscall table for ${arch} (only ${Object.keys(ARCHES).join(', ')})`);
  const denied = [...new Set(DENIED_SYSCALLS.map((name) => a.numbers[name]!))];
  // Layout: [0] load arch, [1] arch check, [2] load nr, [3] foreign-ABI bit, then one jeq per denied call, then
  // ALLOW, DENY (EPERM), ENOSYS, KILL.
  const prog: Insn[] = [];
  const denyChecks = denied.length;
  const allowAt = 4 + denyChecks;
  const denyAt = allowAt + 1;
  const enosysAt = denyAt + 1;
  const killAt = enosysAt + 1;
  const to = (from: number, target: number) => target - from - 1;
  prog.push([BPF_LD_W_ABS, 0, 0, ARCH]);
  prog.push([BPF_JEQ_K, 0, to(1, killAt), a.audit]);
  prog.push([BPF_LD_W_ABS, 0, 0, NR]);
  prog.push(a.foreignBit ? [BPF_JSET_K, to(3, enosysAt), 0, a.foreignBit] : [BPF_JEQ_K, 0, 0, 0xffffffff]);
  denied.forEach((nr, i) => prog.push([BPF_JEQ_K, to(4 + i, denyAt), 0, nr]));
  prog.push([BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW]);
  prog.push([BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM]);
  prog.push([BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | ENOSYS]);
  prog.push([BPF_RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS]);
  if (prog.some(([, jt, jf]) => jt > 255 || jf > 255)) throw new Error('seccomp filter: a jump is longer than BPF allows');
  const out = Buffer.alloc(prog.length * 8);
  prog.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}
