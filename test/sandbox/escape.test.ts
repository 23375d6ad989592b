/**
 * What root inside a sandbox sprite cannot do (the agent's own user: uid 0 of the sprite's user namespace, with the
 * agent's capabilities, under the seccomp filter): read or write a host file, load a kernel module, mount, open a
 * file by handle, use the kernel keyring (so never another sprite's key), write a host kernel setting through
 * /proc/sys, leave through /proc/1/root, nsenter, unshare or chroot. Each probe runs real syscalls (python3's ctypes)
 * and shows the Linux error. Skips with the reason printed where the sandbox cannot run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { agentBundle } from '../../src/agent/testing.ts';
import { DENIED_SYSCALLS, seccompFilter } from '../../src/server/machines/sandbox/seccomp.ts';
import { SandboxMachineFactory, type SandboxMachine } from '../../src/server/machines/sandbox/sandbox-machine.ts';
import { announceSkip, execAsRoot } from './support.ts';

const skip = announceSkip('sandbox escape tests');

/** A python3 preamble: `call(name, *args)` runs the raw syscall and prints `name <errno name>` (or `name ok`). */
const PY = `
import ctypes, errno, os, platform
libc = ctypes.CDLL(None, use_errno=True)
NR = {"x86_64": dict(open_by_handle_at=304, name_to_handle_at=303, init_module=175, finit_module=313, delete_module=176,
  add_key=248, keyctl=250, request_key=249, mount=165, umount2=166, pivot_root=155, open_tree=428, fsopen=430, bpf=321,
  perf_event_open=298, userfaultfd=323, reboot=169, swapon=167, settimeofday=164, clock_settime=227, kexec_load=246),
  "aarch64": dict(open_by_handle_at=265, name_to_handle_at=264, init_module=105, finit_module=273, delete_module=106,
  add_key=217, keyctl=219, request_key=218, mount=40, umount2=39, pivot_root=41, open_tree=428, fsopen=430, bpf=280,
  perf_event_open=241, userfaultfd=282, reboot=142, swapon=224, settimeofday=170, clock_settime=112, kexec_load=104)}[platform.machine()]
def call(name, *args):
    r = libc.syscall(NR[name], *args)
    print(name, "ok" if r >= 0 else errno.errorcode[ctypes.get_errno()])
`;

describe.skipIf(skip)('root inside a sandbox sprite', () => {
  let factory: SandboxMachineFactory;
  let alpha: SandboxMachine;
  let beta: SandboxMachine;
  const canary = `/tmp/spritzer-canary-${randomUUID()}`;

  beforeAll(async () => {
    await agentBundle();
    await writeFile(canary, 'host secret\n', { mode: 0o600 });
    factory = await SandboxMachineFactory.open({ limits: { pids: 512 } });
    [alpha, beta] = await Promise.all([factory.create({ name: 'alpha', id: 'esc-alpha' }), factory.create({ name: 'beta', id: 'esc-beta' })]);
  });

  afterAll(async () => {
    await factory?.close();
    await rm(canary, { force: true });
  });

  it('is root inside with only the agent’s capabilities, none of the dangerous ones', async () => {
    const r = await execAsRoot(alpha, 'id -u; grep -E "^(CapEff|NoNewPrivs|Seccomp):" /proc/self/status');
    const [uid, capEff, nnp, seccomp] = r.out.trim().split('\n');
    expect(uid).toBe('0');
    const caps = BigInt(`0x${capEff!.split(/\s+/)[1]}`);
    for (const bit of [2n /* DAC_READ_SEARCH */, 8n /* SETPCAP */, 16n /* SYS_MODULE */, 18n /* SYS_CHROOT */, 21n /* SYS_ADMIN */, 24n /* SYS_RESOURCE */, 25n /* SYS_TIME */, 27n /* MKNOD */]) {
      expect(caps & (1n << bit), `capability ${bit}`).toBe(0n);
    }
    expect(nnp).toMatch(/NoNewPrivs:\s+1/);
    expect(seccomp).toMatch(/Seccomp:\s+2/); // a filter is installed
  });

  it('cannot read or write a host file, by path, through /proc/1/root or by handle', async () => {
    const r = await execAsRoot(alpha, `cat ${canary} 2>&1 | head -c 200; echo; cat /proc/1/root${canary} 2>&1 | head -c 200; echo;
      python3 -c '${PY}
import ctypes
buf = ctypes.create_string_buffer(128 + 8); ctypes.memmove(buf, (128).to_bytes(4, "little"), 4)
mnt = ctypes.c_int()
call("name_to_handle_at", -100, b"/", buf, ctypes.byref(mnt), 0)
call("open_by_handle_at", os.open("/", os.O_RDONLY), buf, 0)'`);
    expect(r.out).toMatch(/No such file or directory[\s\S]*No such file or directory/);
    expect(r.out).toContain('name_to_handle_at EPERM');
    expect(r.out).toContain('open_by_handle_at EPERM');
    // Writing the same path writes the sprite's own /tmp, never the host's.
    expect((await execAsRoot(alpha, `echo owned > ${canary} && cat ${canary}`)).out).toBe('owned\n');
    expect(await readFile(canary, 'utf8')).toBe('host secret\n');
  });

  it('cannot load or remove a kernel module, mount, pivot, kexec, reboot or set the clock', async () => {
    const r = await execAsRoot(alpha, `python3 -c '${PY}
call("init_module", 0, 0, b"")
call("finit_module", 0, b"", 0)
call("delete_module", b"ext4", 0)
call("mount", b"none", b"/mnt", b"tmpfs", 0, 0)
call("umount2", b"/usr", 0)
call("pivot_root", b"/tmp", b"/tmp")
call("open_tree", -100, b"/", 1)
call("fsopen", b"tmpfs", 0)
call("kexec_load", 0, 0, 0, 0)
call("reboot", 0xfee1dead, 672274793, 0x4321fedc, 0)
call("settimeofday", 0, 0)
call("clock_settime", 0, 0)
call("bpf", 0, 0, 0)
call("perf_event_open", 0, 0, -1, -1, 0)
call("userfaultfd", 0)
call("swapon", b"/tmp/x", 0)'; mount -t tmpfs none /mnt >/dev/null 2>&1 || echo mount-refused`);
    const lines = r.out.trim().split('\n');
    expect(lines.filter((l) => !/ EPERM$/.test(l) && l !== 'mount-refused')).toEqual([]);
    expect(lines).toHaveLength(16 + 1);
    expect(r.out).toContain('mount-refused');
  });

  it('cannot use the kernel keyring, so never another sprite’s key', async () => {
    const add = `python3 -c '${PY}
call("add_key", b"user", b"secret", b"value", 5, -3)
call("keyctl", 0, -3, 0)
call("request_key", b"user", b"secret", 0, 0)'`;
    const a = await execAsRoot(alpha, add);
    expect(a.out).toBe('add_key EPERM\nkeyctl EPERM\nrequest_key EPERM\n');
    expect((await execAsRoot(beta, add)).out).toBe('add_key EPERM\nkeyctl EPERM\nrequest_key EPERM\n');
  });

  it('cannot change a host kernel setting through /proc/sys; /sys is not there', async () => {
    const before = await readFile('/proc/sys/fs/inotify/max_user_instances', 'utf8');
    const pattern = await readFile('/proc/sys/kernel/core_pattern', 'utf8');
    const r = await execAsRoot(alpha, `for f in fs/inotify/max_user_instances kernel/core_pattern kernel/hostname vm/drop_caches; do
      echo 7 > /proc/sys/$f 2>/dev/null && echo "wrote $f" || echo "refused $f"; done; ls /sys | wc -l`);
    expect(r.out).toBe('refused fs/inotify/max_user_instances\nrefused kernel/core_pattern\nrefused kernel/hostname\nrefused vm/drop_caches\n0\n');
    expect(await readFile('/proc/sys/fs/inotify/max_user_instances', 'utf8')).toBe(before);
    expect(await readFile('/proc/sys/kernel/core_pattern', 'utf8')).toBe(pattern);
  });

  it('cannot nsenter, unshare or chroot', async () => {
    const r = await execAsRoot(alpha, `nsenter -t 1 -m -- true 2>/dev/null && echo nsenter || echo no-nsenter;
      unshare -U true 2>/dev/null && echo userns || echo no-userns; unshare -m true 2>/dev/null && echo mntns || echo no-mntns;
      unshare -n true 2>/dev/null && echo netns || echo no-netns; chroot / true 2>/dev/null && echo chroot || echo no-chroot`);
    expect(r.out).toBe('no-nsenter\nno-userns\nno-mntns\nno-netns\nno-chroot\n');
  });
});

describe('the seccomp filter', () => {
  it('is a classic BPF program of 8-byte instructions: arch check, one test per denied call, four returns', () => {
    const prog = seccompFilter('x64');
    expect(prog.length).toBe((4 + DENIED_SYSCALLS.length + 4) * 8);
    expect(prog.readUInt32LE(12)).toBe(0xc000003e); // AUDIT_ARCH_X86_64
    expect(prog.readUInt32LE(prog.length - 4)).toBe(0x80000000); // KILL_PROCESS for another ABI
    expect(() => seccompFilter('mips')).toThrow(/no syscall table for mips/);
  });
});
