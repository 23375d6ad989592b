/**
 * What root inside a sandbox sprite cannot do (the agent's own user: uid 0 of the sprite's user namespace, with the
 * agent's capabilities, under the seccomp filter): read or write a host file, load a kernel module, mount, open a
 * file by handle, use the kernel keyring (so never another sprite's key), write a host kernel setting through
 * /proc/sys, leave through /proc/1/root, nsenter, unshare or chroot, make a device node, write to the host through
 * a bind mount, or read another sprite's files. Each probe runs real syscalls (python3's ctypes)
 * and shows the Linux error. Every probe runs twice: as the agent's own root and through the sprite's `sudo`.
 * Skips with the reason printed where the sandbox cannot run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { agentBundle } from '../support/agent.ts';
import { DENIED_SYSCALLS, seccompFilter } from '../../src/server/machines/sandbox/seccomp.ts';
import { SandboxMachineFactory, type SandboxMachine } from '../../src/server/machines/sandbox/sandbox-machine.ts';
import { announceSkip, exec, execAsRoot, execViaSudo } from './support.ts';

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

  /** The two ways to be root inside: the agent's own spawn as uid 0, and `sudo` run by the sprite user through exec. */
  describe.each([
    ['the agent', execAsRoot],
    ['sudo', execViaSudo],
  ] as const)('through %s', (_how, asRoot) => {
    it('is root inside with only the agent’s capabilities, none of the dangerous ones', async () => {
      const r = await asRoot(alpha, 'id -u; grep -E "^(CapEff|NoNewPrivs|Seccomp):" /proc/self/status');
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
      const r = await asRoot(alpha, `cat ${canary} 2>&1 | head -c 200; echo; cat /proc/1/root${canary} 2>&1 | head -c 200; echo;
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
      expect((await asRoot(alpha, `echo owned > ${canary} && cat ${canary} && rm ${canary}`)).out).toBe('owned\n');
      expect(await readFile(canary, 'utf8')).toBe('host secret\n');
    });

    it('cannot load or remove a kernel module, mount, pivot, kexec, reboot or set the clock', async () => {
      const r = await asRoot(alpha, `python3 -c '${PY}
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
      const a = await asRoot(alpha, add);
      expect(a.out).toBe('add_key EPERM\nkeyctl EPERM\nrequest_key EPERM\n');
      expect((await asRoot(beta, add)).out).toBe('add_key EPERM\nkeyctl EPERM\nrequest_key EPERM\n');
    });

    it('cannot change a host kernel setting through /proc/sys; /sys is not there', async () => {
      const before = await readFile('/proc/sys/fs/inotify/max_user_instances', 'utf8');
      const pattern = await readFile('/proc/sys/kernel/core_pattern', 'utf8');
      const r = await asRoot(alpha, `for f in fs/inotify/max_user_instances kernel/core_pattern kernel/hostname vm/drop_caches; do
        echo 7 > /proc/sys/$f 2>/dev/null && echo "wrote $f" || echo "refused $f"; done; ls /sys | wc -l`);
      expect(r.out).toBe('refused fs/inotify/max_user_instances\nrefused kernel/core_pattern\nrefused kernel/hostname\nrefused vm/drop_caches\n0\n');
      expect(await readFile('/proc/sys/fs/inotify/max_user_instances', 'utf8')).toBe(before);
      expect(await readFile('/proc/sys/kernel/core_pattern', 'utf8')).toBe(pattern);
    });

    it('cannot make device nodes; /dev has no block device', async () => {
      const r = await asRoot(alpha, 'mknod /tmp/sda b 8 0 2>&1; mknod /tmp/mem c 1 1 2>&1; find /dev -type b | wc -l');
      expect(r.out).toBe('mknod: /tmp/sda: Operation not permitted\nmknod: /tmp/mem: Operation not permitted\n0\n');
    });

    it('cannot write to the host through a bind mount (the agent bundle, node, node-pty), nor remount one writable', async () => {
      const files = [process.execPath, (await agentBundle())];
      const before = await Promise.all(files.map((f) => stat(f)));
      const r = await asRoot(alpha, `for p in /.sprite/bin/node /.sprite/agent/agent.mjs /.sprite/agent/node_modules/node-pty/package.json /.sprite/agent/new; do
        (echo x >> $p) 2>/dev/null && echo "wrote $p" || echo "refused $p"; done
        mount -o remount,rw /.sprite/bin/node 2>/dev/null && echo remounted || echo no-remount`);
      expect(r.out).toBe(['/.sprite/bin/node', '/.sprite/agent/agent.mjs', '/.sprite/agent/node_modules/node-pty/package.json', '/.sprite/agent/new']
        .map((p) => `refused ${p}\n`).join('') + 'no-remount\n');
      const after = await Promise.all(files.map((f) => stat(f)));
      expect(after.map((s) => [s.size, s.mtimeMs])).toEqual(before.map((s) => [s.size, s.mtimeMs]));
    });

    it('cannot read another sprite’s files: not through /proc, not by searching, not at its host path', async () => {
      const name = `beta-secret-${randomUUID()}`;
      expect((await exec(beta, `echo beta-only > /home/sprite/${name}`)).code).toBe(0);
      const upper = /upperdir=([^,]+)/.exec((await asRoot(alpha, 'grep -m1 " / / " /proc/self/mountinfo')).out)?.[1] ?? '';
      expect(upper).toContain('esc-alpha');
      const betaUpper = upper.replace('esc-alpha', 'esc-beta');
      const r = await asRoot(alpha, `cat /proc/*/root/home/sprite/${name} 2>/dev/null; find / -xdev -name ${name} 2>/dev/null;
        ls ${betaUpper}/home/sprite 2>&1 | grep -c "No such file"`);
      expect(r.out).toBe('1\n');
    });

    it('cannot nsenter, unshare or chroot', async () => {
      const r = await asRoot(alpha, `nsenter -t 1 -m -- true 2>/dev/null && echo nsenter || echo no-nsenter;
        unshare -U true 2>/dev/null && echo userns || echo no-userns; unshare -m true 2>/dev/null && echo mntns || echo no-mntns;
        unshare -n true 2>/dev/null && echo netns || echo no-netns; chroot / true 2>/dev/null && echo chroot || echo no-chroot`);
      expect(r.out).toBe('no-nsenter\nno-userns\nno-mntns\nno-netns\nno-chroot\n');
    });
  });

  /**
   * The sprite user of an exec session holds CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_FOWNER and CAP_FSETID (docs/fidelity.md
   * "Root-level writes"), so it writes where only root did: every such path is still the sprite's own.
   */
  describe('through the sprite user’s exec-session capabilities', () => {
    it('holds exactly the four file capabilities, under no_new_privs and the seccomp filter', async () => {
      const r = await exec(alpha, 'id -u; grep -E "^(CapInh|CapPrm|CapEff|CapAmb|NoNewPrivs|Seccomp):" /proc/self/status');
      const [uid, inh, prm, eff, amb, nnp, seccomp] = r.out.trim().split('\n');
      expect([uid, inh, prm, eff, amb]).toEqual(['1001', 'CapInh:\t000000000000001b', 'CapPrm:\t000000000000001b', 'CapEff:\t000000000000001b', 'CapAmb:\t000000000000001b']);
      expect(nnp).toMatch(/NoNewPrivs:\s+1/);
      expect(seccomp).toMatch(/Seccomp:\s+2/);
    });

    it('a link under /workspace to a host path, or through /proc/1/root, reaches only the sprite’s own files', async () => {
      const r = await exec(alpha, `mkdir -p /workspace && ln -sfn ${canary} /workspace/host && ln -sfn /proc/1/root/tmp /workspace/proc-root
        cat /workspace/host 2>&1; ls /workspace/proc-root/ 2>&1 | grep -c spritzer-canary
        echo owned > /workspace/host && cat ${canary} && rm ${canary}; cat /proc/2/root${canary} 2>&1`);
      expect(r.out).toBe(`cat: /workspace/host: No such file or directory\n0\nowned\ncat: /proc/2/root${canary}: Permission denied\n`);
      expect(await readFile(canary, 'utf8')).toBe('host secret\n');
    });

    it('files made in /run, /var/log, /mnt, /srv, /opt and /etc land in the sprite’s layer, never on the host', async () => {
      const tag = `spritzer-escape-${randomUUID()}`;
      const paths = [`/run/${tag}.lock`, `/var/log/${tag}.log`, `/mnt/${tag}/uploads/f`, `/srv/${tag}/f`, `/opt/${tag}/bin/f`, `/etc/${tag}.conf`];
      const r = await exec(alpha, paths.map((p) => `mkdir -p $(dirname ${p}) && echo mine > ${p} && stat -c "%U %n" ${p}`).join(' && '));
      expect(r.out).toBe(paths.map((p) => `sprite ${p}\n`).join(''));
      for (const p of paths) await expect(stat(p), p).rejects.toMatchObject({ code: 'ENOENT' });
      // The sprite's own layer holds them (overlay copy-up), owned by the sprite user's host id.
      expect((await readFile(`${alpha.paths.layer}/root/upper/etc/${tag}.conf`, 'utf8'))).toBe('mine\n');
    });

    it('chown and chmod of a root-owned base file change the sprite’s copy only; the host’s file keeps its owner and mode', async () => {
      const before = await stat('/etc/passwd');
      const r = await exec(alpha, 'chown 1001:1001 /etc/passwd && chmod 600 /etc/passwd && stat -c "%u:%g %a" /etc/passwd; echo "x:x:9:9::/:/bin/sh" >> /etc/passwd && tail -1 /etc/passwd');
      expect(r.out).toBe('1001:1001 600\nx:x:9:9::/:/bin/sh\n');
      const after = await stat('/etc/passwd');
      expect([after.uid, after.gid, after.mode, after.size, after.mtimeMs]).toEqual([before.uid, before.gid, before.mode, before.size, before.mtimeMs]);
      expect((await exec(beta, 'stat -c "%u:%g %a" /etc/passwd')).out).toBe('0:0 644\n');
    });

    it('cannot reach the agent: its socket directory, its bound files, its signals, its /proc entries', async () => {
      // CAP_DAC_OVERRIDE lists /proc/2/fd (numbers only); what a descriptor is, and opening it, wants ptrace access.
      const r = await exec(alpha, `ls /.sprite/run 2>&1; touch /.sprite/run/x 2>&1; (echo x >> /.sprite/agent/agent.mjs) 2>&1; (echo x > /.sprite/agent/spritzer-runas) 2>&1
        kill -STOP 2 2>&1; cat /proc/2/environ 2>&1; readlink /proc/2/fd/0 || echo no-readlink; cat /proc/2/fd/0 2>&1 </dev/null`);
      expect(r.out).toBe([
        "ls: cannot open directory '/.sprite/run': Permission denied",
        "touch: cannot touch '/.sprite/run/x': Permission denied",
        // The bundle is host root's (an owner the namespace does not map: no override); the helper's mount is read-only.
        'sh: 1: cannot create /.sprite/agent/agent.mjs: Permission denied',
        'sh: 1: cannot create /.sprite/agent/spritzer-runas: Read-only file system',
        'sh: 2: kill: Operation not permitted',
        '', // dash ends its kill message with an empty line
        'cat: /proc/2/environ: Permission denied',
        'no-readlink',
        'cat: /proc/2/fd/0: Permission denied',
        '',
      ].join('\n'));
    });

    it('cannot read another sprite’s files, nor mount, unshare or chroot', async () => {
      const name = `beta-secret-${randomUUID()}`;
      expect((await exec(beta, `echo beta-only > /home/sprite/${name}`)).code).toBe(0);
      const r = await exec(alpha, `cat /proc/*/root/home/sprite/${name} 2>/dev/null; find / -xdev -name ${name} 2>/dev/null | wc -l
        mount -t tmpfs none /mnt 2>/dev/null || echo no-mount; unshare -U true 2>/dev/null || echo no-userns; chroot / true 2>/dev/null || echo no-chroot`);
      expect(r.out).toBe('0\nno-mount\nno-userns\nno-chroot\n');
    });
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
