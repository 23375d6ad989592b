import { spawnSync } from 'node:child_process';
import { describe, it, expect } from 'vitest';
import { FakeClock } from '../../../core/clock.ts';
import { Vfs } from '../vfs.ts';
import { runShell, runShellWith } from '../../../../../test/support/shell-run.ts';
import { MemoryMachineFactory } from '../machine.ts';
import { createShellEngine } from './engine.ts';
import { seedLinuxTree } from '../linux-skeleton.ts';
import { REAL_ENGINE_COMMANDS } from './world.ts';
import type { SpriteContext } from '../engine.ts';

// What a script on the shell engine sees of its Linux world, each input with the exact value real bash gives.

const T = Date.UTC(2026, 10, 30, 9, 5, 0);

function sprite(): SpriteContext {
  let pid = 41;
  return { name: 'demo', vfs: seedLinuxTree(Vfs.skeleton(() => T), 'demo'), allocatePid: () => ++pid };
}

const sh = runShellWith;

const HINT = 'run spritzer with --exec sandbox';

describe('devices and the Linux skeleton', () => {
  it('head -c 16 /dev/urandom | wc -c prints 16', async () => {
    expect(await sh('head -c 16 /dev/urandom | wc -c')).toEqual({ stdout: '16\n', stderr: '', exit: 0 });
  });

  it('head -c 16 /dev/zero | od -An -tx1 prints sixteen 00', async () => {
    expect((await sh('head -c 16 /dev/zero | od -An -tx1')).stdout).toBe(`${' 00'.repeat(16)}\n`);
  });

  it('/dev/urandom gives different bytes on each read', async () => {
    const { stdout } = await sh('head -c 16 /dev/urandom | od -An -tx1; head -c 16 /dev/urandom | od -An -tx1');
    const [a, b] = stdout.split('\n');
    expect(a).toMatch(/^( [0-9a-f]{2}){16}$/);
    expect(a).not.toBe(b);
  });

  it('echo x > /dev/null works and writes nothing', async () => {
    const ctx = sprite();
    expect(await sh('echo x > /dev/null; echo $?', { ctx })).toEqual({ stdout: '0\n', stderr: '', exit: 0 });
    expect(ctx.vfs.exists('/dev/null')).toBe(false);
  });

  it('/dev/stdout and /dev/stderr work in redirections', async () => {
    expect(await sh('echo out > /dev/stdout; echo err > /dev/stderr')).toEqual({ stdout: 'out\n', stderr: 'err\n', exit: 0 });
  });

  it('/dev/stdin reads the pipe, and the exec stdin', async () => {
    expect((await sh('echo abc | cat /dev/stdin')).stdout).toBe('abc\n');
    expect((await sh('wc -c /dev/stdin', { stdin: 'hello' })).stdout).toMatch(/^5( \/dev\/stdin| -)?\n$/);
    expect((await sh('cat /dev/stdin', { stdin: 'ff\n' })).stdout).toBe('ff\n');
  });

  it('a new sprite has /bin, /usr/bin, /etc and /var/tmp', async () => {
    expect(await sh('for d in /bin /usr/bin /usr/local/bin /etc /var/tmp; do test -d $d && echo $d; done')).toEqual({
      stdout: '/bin\n/usr/bin\n/usr/local/bin\n/etc\n/var/tmp\n',
      stderr: '',
      exit: 0,
    });
  });

  it('/etc/hostname is the sprite name, /etc/passwd lists sprite, /etc/os-release names the OS', async () => {
    expect((await sh('cat /etc/hostname')).stdout).toBe('demo\n');
    expect((await sh("grep '^sprite:' /etc/passwd")).stdout).toBe('sprite:x:1001:1001::/home/sprite:/bin/bash\n');
    expect((await sh('. /etc/os-release; echo "$ID $VERSION_ID"')).stdout).toBe('ubuntu 25.10\n');
    expect((await sh('hostname; uname -n; uname -s')).stdout).toBe('demo\ndemo\nLinux\n');
  });

  it('hostname -s, -f, -d and -i answer as Debian\'s for a name without a domain; -I fails loudly', async () => {
    expect(await sh('hostname -s; hostname --fqdn; hostname -d; hostname -i; hostname -f -d; hostname -I; echo "s=$?"')).toEqual({
      stdout: 'demo\ndemo\n127.0.1.1\ns=127\n',
      stderr: 'hostname: not available in the shell engine with -I; run spritzer with --exec sandbox\n',
      exit: 0,
    });
  });

  it('which sh names a path that ls can show: a link to dash, as on Debian and Ubuntu', async () => {
    expect((await sh('which sh')).stdout).toBe('/usr/bin/sh\n');
    const listed = await sh('ls -l "$(which sh)"; ls /usr/bin | grep -x sh; ls /bin | grep -x ls; readlink -f /bin/sh');
    expect(listed).toEqual({ stdout: `lrwxrwxrwx 1 root root 4 Nov 30 09:05 /usr/bin/sh -> dash\nsh\nls\n/usr/bin/dash\n`, stderr: '', exit: 0 });
    expect((await sh('cat /usr/bin/sh')).stdout).toBe('#!/bin/bash\n# Built-in command: dash\n');
  });

  it('has the merged-/usr links and the usual /usr directories; passwd is set-user-ID', async () => {
    const r = await sh('readlink /bin /sbin /lib /lib64; ls -d /usr/lib /usr/lib64 /usr/share; stat -c "%a %U" /usr/bin/passwd; [ -u /usr/bin/passwd ] && echo suid; cd /lib && pwd -P');
    expect(r).toEqual({ stdout: 'usr/bin\nusr/sbin\nusr/lib\nusr/lib64\n/usr/lib\n/usr/lib64\n/usr/share\n4755 root\nsuid\n/usr/lib\n', stderr: '', exit: 0 });
  });

  it('lists the commands of /bin through the link, with or without a final slash', async () => {
    expect(await sh('ls /bin/ | grep -cx ls; ls /bin | grep -cx ls; find /bin/ -maxdepth 1 -name ls; find /bin -maxdepth 1 -name ls')).toEqual({ stdout: '1\n1\n/bin/ls\n', stderr: '', exit: 0 });
  });

  it('/proc/self describes the process reading it (a command with a pid of its own, the shell its parent), and /proc is in no checkpoint', async () => {
    const ctx = sprite();
    expect(await sh('echo $$; grep -E "^(Name|Pid|PPid|Uid):" /proc/self/status; while read -r l; do echo "$l"; done < /proc/self/status | head -1; ls /proc/self; cat /proc/version', { ctx })).toEqual({
      stdout: '42\nName:\tgrep\nPid:\t43\nPPid:\t42\nUid:\t1001\t1001\t1001\t1001\nName:\tbash\ncmdline\ncomm\ncwd\nenviron\nexe\nfd\nlimits\nmounts\nstat\nstatus\nLinux version 6.12.0-spritzer (spritzer shell engine) #1 SMP\n',
      stderr: '',
      exit: 0,
    });
    expect(ctx.vfs.exists('/proc')).toBe(false);
  });

  it('/proc/self/status has Linux\'s lines in its order, Threads 1 among them', async () => {
    const r = await sh('cut -d: -f1 /proc/self/status | tr "\\n" " "; awk \'/^Threads:/{print $2}\' /proc/self/status');
    expect(r.stdout).toBe('Name State Tgid Ngid Pid PPid TracerPid Uid Gid FDSize Groups Threads 1\n');
  });

  it('/dev lists its devices and fd, a link to /proc/self/fd, which lists the reading process descriptors', async () => {
    const ctx = sprite();
    expect(await sh('ls /dev; ls /dev/fd/; ls /proc/self/fd | wc -l; readlink /dev/fd; ls -ld /dev/fd | cut -c1-10; test -e /dev/fd/1 && echo open', { ctx })).toEqual({
      stdout: 'fd\nnull\nrandom\nstderr\nstdin\nstdout\ntty\nurandom\nzero\n0\n1\n2\n3\n4\n/proc/self/fd\nlrwxrwxrwx\nopen\n',
      stderr: '',
      exit: 0,
    });
    expect(ctx.vfs.exists('/dev')).toBe(false);
  });

  it('a memory machine starts with the skeleton, seen through the fs API too', async () => {
    const factory = new MemoryMachineFactory(createShellEngine({ clock: new FakeClock(T) }), new FakeClock(T));
    const machine = await factory.create({ name: 'alpha', id: 'sprite-1' });
    expect(Buffer.from(await machine.fs.readFile('/etc/hostname')).toString()).toBe('alpha\n');
    expect((await machine.fs.stat('/var/tmp')).mode).toBe(0o1777);
    expect((await machine.fs.stat('/etc/passwd')).uid).toBe(0);
    await machine.destroy();
  });
});

describe('job control, signals, limits', () => {
  // Background jobs, wait, kill and traps run now: src/server/machines/memory/shell/jobs.test.ts and
  // test/integration/exec/shell-jobs.test.ts hold their tests.
  it('&& and a quoted & are not background jobs', async () => {
    expect((await sh("true && echo 'a & b'")).stdout).toBe('a & b\n');
  });

  it('kill of a pid no process has answers ESRCH as bash does; kill -l lists signals', async () => {
    expect(await sh('kill 4321')).toEqual({ stdout: '', stderr: 'bash: line 1: kill: (4321) - No such process\n', exit: 1 });
    expect((await sh('kill -l')).stdout).toContain('TERM');
  });

  it('trap … EXIT runs at the end; a TERM or INT handler waits for its signal', async () => {
    expect(await sh(`trap 'echo bye' EXIT; echo hi`)).toEqual({ stdout: 'hi\nbye\n', stderr: '', exit: 0 });
    expect(await sh(`trap 'echo bye' TERM; trap 'echo bye' INT; echo hi`)).toEqual({ stdout: 'hi\n', stderr: '', exit: 0 });
  });

  it('seq 1 200000 finishes', async () => {
    expect(await sh('seq 1 200000 | tail -1')).toEqual({ stdout: '200000\n', stderr: '', exit: 0 });
  });

  it('a while read over 200,000 lines finishes', async () => {
    const r = await sh('seq 1 200000 > /tmp/s; n=0; while read l; do n=$((n+1)); done < /tmp/s; echo $n');
    expect(r).toEqual({ stdout: '200000\n', stderr: '', exit: 0 });
  }, 120_000);

  it('--shell-max-commands ends a runaway loop with a message naming the flag', async () => {
    const r = await sh('i=0; while true; do i=$((i+1)); done', { limits: { maxCommands: 1000, timeoutMs: 0 } });
    expect(r.exit).toBe(126);
    expect(r.stderr).toMatch(/\nsh: the shell engine ended this command after 1000 commands \(--shell-max-commands\); raise it or run spritzer with --exec sandbox\n$/);
  });

  it('a limit of just-bash below --shell-max-commands is named as its own, not as the flag', async () => {
    const r = await sh('seq 1 2000000 | tail -1');
    expect(r.exit).toBe(126);
    expect(r.stderr).toMatch(/^bash: seq: iteration limit exceeded \((\d+)\)\nsh: the shell engine ended this command at a limit of \1 of its own, which --shell-max-commands does not raise; run spritzer with --exec sandbox\n$/);
  });

  it('runs functions a thousand calls deep, as bash does, and says so loudly past its depth', async () => {
    const r = await sh('f() { if [ $1 -gt 0 ]; then f $(( $1 - 1 )); else echo bottom; fi; }; f 900; g() { g; }; g; echo "rc=$?"', { limits: { maxCommands: 1e9, timeoutMs: 0 } });
    // Past the depth the script ends, as bash itself ends (out of stack) on a recursion that never stops.
    expect([r.stdout, r.exit]).toEqual(['bottom\n', 126]);
    expect(r.stderr).toMatch(/\nsh: the shell engine runs shell functions at most \d+ calls deep; run spritzer with --exec sandbox\n$/);
  }, 120_000);

  it('nests subshells 256 deep and then fails loudly, so a recursion through ( … ) cannot take the server\'s memory', async () => {
    const r = await sh('h() { if [ $1 -gt 0 ]; then (h $(( $1 - 1 ))); else echo bottom; fi; }; h 200; h 300; echo "rc=$?"', { limits: { maxCommands: 1e9, timeoutMs: 0 } });
    expect([r.stdout, r.exit]).toEqual(['bottom\n', 126]);
    expect(r.stderr).toMatch(/subshell: maximum depth \(256\) exceeded\nsh: the shell engine nests \( … \) subshells at most 256 deep; run spritzer with --exec sandbox\n$/);
  }, 120_000);

  it('--shell-timeout ends a CPU-bound loop with a message naming the flag', async () => {
    const r = await sh('while true; do :; done', { limits: { maxCommands: 1e9, timeoutMs: 150 } });
    expect(r.exit).toBe(124);
    expect(r.stderr).toMatch(/\nsh: the shell engine ended this command after 150 ms \(--shell-timeout\); raise it or run spritzer with --exec sandbox\n$/);
  });
});

describe('interpreters and missing commands', () => {
  it("python3 -c 'print(6*7)' prints 42", async () => {
    expect(await sh("python3 -c 'print(6*7)'")).toEqual({ stdout: '42\n', stderr: '', exit: 0 });
  }, 60_000);

  it("sqlite3 :memory: 'select 1+1' prints 2", async () => {
    expect(await sh("sqlite3 :memory: 'select 1+1'")).toEqual({ stdout: '2\n', stderr: '', exit: 0 });
  }, 60_000);

  it('sqlite3 prints a REAL as the sqlite shell (4.0, 0.3, 1.0e+20) and an INTEGER exactly; json with 20 digits; box headers centred', async () => {
    const r = await sh("sqlite3 :memory: 'select avg(x), 0.1+0.2, 1e20, 9007199254740993, 1.0/3 from (select 3 as x union all select 5)'; sqlite3 -json :memory: 'select 2.0 as a, 1.0/3 as b'; sqlite3 -box :memory: \"select 'abc' as n\"");
    expect(r.stdout).toBe('4.0|0.3|1.0e+20|9007199254740993|0.333333333333333\n[{"a":2.0,"b":0.33333333333333331482}]\n┌─────┐\n│  n  │\n├─────┤\n│ abc │\n└─────┘\n');
  }, 60_000);

  it('js-exec and node -e, -p and FILE run through QuickJS on every supported Node', async () => {
    expect(await sh("js-exec -c 'console.log(6*7)'")).toEqual({ stdout: '42\n', stderr: '', exit: 0 });
    expect(await sh("node -e 'console.log(6*7)'; node -p '1 + 2'; node -p 'var x = 1; x + 1;'; node -e 'process.exit(4)'; echo status=$?")).toEqual({ stdout: '42\n3\n2\nstatus=4\n', stderr: '', exit: 0 });
    expect(await sh("echo 'console.error(require(\"fs\").readFileSync(\"/tmp/in\", \"utf8\").trim())' > /tmp/a.js; echo hi > /tmp/in; node /tmp/a.js 2>&1")).toEqual({ stdout: 'hi\n', stderr: '', exit: 0 });
  }, 60_000);

  it('node -e has process.stdout/stderr.write, stdin, argv, json require, timers and exitCode as node; what it cannot reproduce is refused (exit 2)', async () => {
    const r = await sh(`printf 'ab\\n' > in; printf '{"v":"1.2"}' > p.json; node -e 'process.stdout.write("a"); process.stderr.write("e\\n"); process.stdout.write(process.argv.slice(1).join() + "\\n")' x y; node -e 'let d = ""; process.stdin.on("data", (c) => (d += c)); process.stdin.on("end", () => process.stdout.write(d.toUpperCase()))' < in; node -e 'setTimeout(() => console.log("t"), 5); process.nextTick(() => console.log("tick")); console.log(require("./p.json").v, "%d!", 3); process.exitCode = 3'; echo "s=$?"; node -e 'console.log(new Error("x"))'; echo "s=$?"; node -e 'require("http")'; echo "s=$?"`);
    expect(r.stdout).toBe('ax,y\nAB\n1.2 %d! 3\ntick\nt\ns=3\ns=2\ns=2\n');
    expect(r.stderr).toBe("e\nnode: console.log of a value of class Error (node's util.inspect layout) is not available in the shell engine; run spritzer with --exec sandbox\nnode: the module 'http' is not available in the shell engine; run spritzer with --exec sandbox\n");
  }, 60_000);

  it("node -e refuses to print what node shows with its own internals: Math, process, a module, Buffer, a module's result", async () => {
    const r = await sh(`for c in 'console.log(Math)' 'console.log(process)' 'console.log(require("path"))' 'console.log(Buffer)' 'console.log(require("fs").statSync("."))'; do node -e "$c"; echo "s=$?"; done`);
    expect(r.stdout).toBe('s=2\n'.repeat(5));
    expect(r.stderr.split('\n').filter(Boolean).every((l) => l.startsWith('node: console.log of ') && l.endsWith('run spritzer with --exec sandbox'))).toBe(true);
  }, 60_000);

  it("node -e prints objects, arrays, Map/Set, -0, functions, classes and cycles with node's own util.inspect/util.format", async () => {
    const code = [
      'console.log([1, 2], { a: 1, b: [1, 2] }, { a: { b: { c: { d: 1 } } } }, ["x", "it\'s", ""]);',
      'console.log(Array.from({ length: 30 }, (_, i) => i * 7), Array.from({ length: 120 }, (_, i) => i));',
      'console.log(new Map([["a", 1]]), new Set([1, [2]]), [-0, NaN, undefined, null, 10n], [, 1], new Date(0), /a+/g);',
      'const o = { n: 1 }; o.self = o; class P { constructor() { this.x = 1; } }',
      'console.log(o, new P(), { f: function named() {}, g: () => 1, h: class K {} }, Object.create(null), Buffer.from("hi"));',
      'console.log("%s=%d %o %O %j %%", "a", 5, { a: [1] }, { b: 2 }, { c: 3 }, "extra", { x: 1 });',
      'console.dir({ a: { b: { c: { d: 1 } } } }, { depth: null });',
      'const util = require("util"); console.log(util.inspect({ a: [1, { b: 2 }] }, { depth: 0 }), util.format("%s", { k: "v" }));',
      'console.table([{ name: "x", n: 1 }, { name: "yy", n: 22, extra: true }]); console.table({ r: { c: "ü" } }, ["c"]);',
      'console.error({ e: [1] });',
    ].join('\n');
    const script = `node -e '${code.replace(/'/g, "'\\''")}' 2>&1; node -p '({ a: 1, b: [true, null] })'; node -e 'console.log(process.argv.slice(1))' -- x 'y z'`;
    // The Node running these tests prints the reference.
    const expected = spawnSync('bash', ['-c', script.replace(/\bnode -/g, `'${process.execPath}' -`)], { encoding: 'utf8' }).stdout;
    expect((await sh(script)).stdout).toBe(expected);
  }, 60_000);

  it('an unknown command is "bash: X: command not found" (127)', async () => {
    expect(await sh('nosuchcmd')).toEqual({ stdout: '', stderr: 'bash: line 1: nosuchcmd: command not found\n', exit: 127 });
  });

  it.each(['wget', 'make', 'gcc', 'apt', 'apt-get', 'docker', 'top', 'passwd', 'ionice', 'taskset', 'unshare'])('%s says it needs --exec sandbox (127)', async (name) => {
    expect(await sh(`${name} --version`)).toEqual({ stdout: '', stderr: `${name}: not available in the shell engine; ${HINT}\n`, exit: 127 });
  });

  it('no message mentions browser environments', async () => {
    const names = ['tar --version', 'yq --version', 'xan --version', 'python --version', ...REAL_ENGINE_COMMANDS.slice(0, 5)];
    for (const cmd of names) expect((await sh(cmd)).stderr).not.toMatch(/browser/i);
  }, 60_000);
});

describe('files', () => {
  it('ln -s missing /tmp/d; rm /tmp/d exits 0 and removes the link', async () => {
    expect(await sh('ln -s missing /tmp/d; rm /tmp/d; echo $?; ls -A /tmp')).toEqual({ stdout: '0\n', stderr: '', exit: 0 });
  });

  it('rm of a link to a directory removes the link, not the directory', async () => {
    const r = await sh('mkdir /tmp/dir; touch /tmp/dir/keep; ln -s /tmp/dir /tmp/l; rm /tmp/l; echo $?; ls /tmp; ls /tmp/dir');
    expect(r).toEqual({ stdout: '0\ndir\nkeep\n', stderr: '', exit: 0 });
  });

  it('rm -f and rm -rf of a link remove the link only', async () => {
    const r = await sh('mkdir /tmp/dir; ln -s missing /tmp/a; ln -s /tmp/dir /tmp/b; rm -f /tmp/a; rm -rf /tmp/b; echo $?; ls /tmp');
    expect(r).toEqual({ stdout: '0\ndir\n', stderr: '', exit: 0 });
  });

  it('rm of a directory without -r, and of a missing file, fail as GNU rm does', async () => {
    expect(await sh('mkdir d; rm d; rm nope; rm -f nope; echo $?')).toEqual({
      stdout: '0\n',
      stderr: "rm: cannot remove 'd': Is a directory\nrm: cannot remove 'nope': No such file or directory\n",
      exit: 0,
    });
  });

  it('ls -l shows the real mode, type, owner sprite and link target', async () => {
    const r = await sh('printf 12345 > f; chmod 600 f; ln -s f g; mkdir d; ls -l; ls -ld /tmp; ls -l /dev/null');
    expect(r).toEqual({
      stdout: [
        'total 8',
        'drwxr-xr-x 2 sprite sprite 4096 Nov 30 09:05 d',
        '-rw------- 1 sprite sprite    5 Nov 30 09:05 f',
        'lrwxrwxrwx 1 sprite sprite    1 Nov 30 09:05 g -> f',
        'drwxrwxrwt 2 root root 4096 Nov 30 09:05 /tmp',
        'crw-rw-rw- 1 root root 1, 3 Nov 30 09:05 /dev/null',
        '',
      ].join('\n'),
      stderr: '',
      exit: 0,
    });
  });

  it('a name over 255 bytes is "File name too long"; 255 bytes work', async () => {
    const ok = 'a'.repeat(255);
    const long = 'b'.repeat(256);
    const r = await sh(`touch ${ok} && echo made; touch ${long}; echo $?; mkdir ${long}; echo $?`);
    expect(r).toEqual({
      stdout: 'made\n1\n1\n',
      stderr: `touch: cannot touch '${long}': File name too long\nmkdir: cannot create directory '${long}': File name too long\n`,
      exit: 0,
    });
  });

  it('a redirection to a name over 255 bytes fails its command with the name and the reason; the script goes on', async () => {
    const long = 'c'.repeat(256);
    expect(await sh(`echo x > ${long}; echo "after $?"`)).toEqual({ stdout: 'after 1\n', stderr: `bash: line 1: ${long}: File name too long\n`, exit: 0 });
  });
});

describe('tee', () => {
  it('takes -i (ignore interrupts), alone or in a cluster, as a no-op', async () => {
    expect(await runShell('echo hi | tee -i t > /dev/null; echo ho | tee -ai t u; cat t u; echo x | tee --ignore-interrupts -- -i > /dev/null; cat -- -i')).toEqual({ stdout: 'ho\nhi\nho\nho\nx\n', stderr: '', exit: 0 });
  });
});

describe('shell-world details', () => {
  it('ls -lh sizes, a date over six months old shows the year, -n shows numeric owners', async () => {
    const ctx = sprite();
    ctx.vfs.writeFile('/tmp/big', new Uint8Array(1536 * 1024));
    ctx.vfs.writeFile('/tmp/old', 'x');
    ctx.vfs.utimes('/tmp/old', Date.UTC(2025, 0, 2, 3, 4));
    expect((await sh('ls -lh /tmp/big; ls -l /tmp/old; ls -ln /tmp/old', { ctx })).stdout).toBe(
      [
        '-rw-r--r-- 1 sprite sprite 1.5M Nov 30 09:05 /tmp/big',
        '-rw-r--r-- 1 sprite sprite 1 Jan  2  2025 /tmp/old',
        '-rw-r--r-- 1 1001 1001 1 Jan  2  2025 /tmp/old',
        '',
      ].join('\n'),
    );
  });

  it('ls -l of several operands: files first, then each directory under its name; a missing one exits 2', async () => {
    const r = await sh('mkdir d; : > f; : > d/x; ls -l f d nope');
    expect(r).toEqual({
      stdout: '-rw-r--r-- 1 sprite sprite 0 Nov 30 09:05 f\n\nd:\ntotal 0\n-rw-r--r-- 1 sprite sprite 0 Nov 30 09:05 x\n',
      stderr: "ls: cannot access 'nope': No such file or directory\n",
      exit: 2,
    });
  });

  it('ls sorts by name in the C locale; -r reverses', async () => {
    expect((await sh('touch b a; ls')).stdout).toBe('a\nb\n');
    expect((await sh('touch b a; ls -lr')).stdout).toMatch(/ b\n.* a\n$/);
  });

  it('rm -d removes an empty directory, rm -v names what it removed, rm -r removes a tree', async () => {
    expect(await sh('mkdir e t; touch t/x; rm -dv e; rm -rv t; ls')).toEqual({ stdout: "removed directory 'e'\nremoved 't/x'\nremoved directory 't'\n", stderr: '', exit: 0 });
    // -rv names each file and directory of the tree, a directory after its contents.
    expect((await sh('mkdir -p t/a/b; touch t/x t/a/y t/a/b/z; rm -rv t/ | sort')).stdout).toBe(
      "removed 't/a/b/z'\nremoved 't/a/y'\nremoved 't/x'\nremoved directory 't/'\nremoved directory 't/a'\nremoved directory 't/a/b'\n",
    );
    expect(await sh('mkdir e; touch e/x; rm -d e')).toEqual({ stdout: '', stderr: "rm: cannot remove 'e': Directory not empty\n", exit: 1 });
    expect((await sh('rm')).stderr).toBe("rm: missing operand\nTry 'rm --help' for more information.\n");
    expect((await sh('rm -q x')).stderr).toBe("rm: invalid option -- 'q'\n");
  });

  it('uname answers for the sprite', async () => {
    expect((await sh('uname; uname -a; uname -sm')).stdout).toMatch(/^Linux\nLinux demo 6\.12\.0-spritzer #1 SMP (x86_64|aarch64) GNU\/Linux\nLinux (x86_64|aarch64)\n$/);
  });

  it('a script that fails for another reason keeps its own exit code and message', async () => {
    expect(await sh('echo hi; exit 3', { limits: { maxCommands: 1000, timeoutMs: 10_000 } })).toEqual({ stdout: 'hi\n', stderr: '', exit: 3 });
  });
});

describe('node reports as node does', () => {
  it('-v is the version process.version gives; an uncaught error is reported as node does (place, source line, caret, stack), status 1', async () => {
    const got = await runShell(`node -v; node -p process.version; node -e 'throw new TypeError("bad")'; echo "status=$?"; node -e 'class E extends Error { constructor(m) { super(m); this.name = "E"; } }; throw new E("mine")' 2>&1 | sed -n 5p`);
    expect(got.stdout).toMatch(/^(v\d+\.\d+\.\d+)\n\1\nstatus=1\nE: mine\n$/);
    expect(got.stderr).toBe('[eval]:1\nthrow new TypeError("bad")\n^\n\nTypeError: bad\n    at [eval]:1:7\n\nNode.js v22.0.0\n');
  }, 60_000);
});

describe("node's process.env and os describe the sprite", () => {
  it('process.env is the exported environment (prefix assignments too); os answers from /etc and /proc', async () => {
    const got = await runShell(
      [
        `export N=1; v=2; M=3 node -p '[process.env.N, process.env.v, process.env.M, process.env.IFS].join(",")'`,
        `HOME=/tmp node -p 'require("os").homedir()'`,
        `node -p 'const os = require("node:os"); [os.hostname(), os.release(), os.cpus().length, os.totalmem(), os.availableParallelism()].join(" ")'`,
        'echo "$(hostname) $(uname -r) $(nproc) $(($(sed -n "s/^MemTotal: *\\([0-9]*\\) kB/\\1/p" /proc/meminfo) * 1024)) $(nproc)"',
      ].join('\n'),
    );
    const [env, home, os, shell] = got.stdout.split('\n');
    expect([env, home]).toEqual(['1,,3,', '/tmp']);
    expect(os).toBe(shell);
    expect(os).toMatch(/^demo \S+ [1-9]\d* [1-9]\d* [1-9]\d*$/);
    expect(got.stderr).toBe('');
  }, 60_000);
});

describe("node's string collation (no Intl in QuickJS)", () => {
  it('localeCompare orders as ICU root does: punctuation, digits, letters; accents, then lower before upper; numeric and sensitivity', async () => {
    const got = await runShell(`node -e 'console.log(["b", "a", "C", "_x", "10", "9", "Ä", "ä", " z"].sort((a, b) => a.localeCompare(b)).join("|")); console.log(["item10", "item2", "Item1"].sort((a, b) => a.localeCompare(b, undefined, { numeric: true })).join(","), "a".localeCompare("A", undefined, { sensitivity: "base" }), "a".localeCompare("á", undefined, { sensitivity: "accent" }), "résumé".localeCompare("resume"))'`);
    expect(got).toEqual({ stdout: ' z|_x|10|9|a|ä|Ä|b|C\nItem1,item2,item10 0 -1 1\n', stderr: '', exit: 0 });
  }, 60_000);
});

describe("node's English number and date texts (no Intl in QuickJS)", () => {
  it('toLocaleString groups and rounds as ICU does; dates print as en-US with the zone name; another locale is refused loudly', async () => {
    const got = await runShell(
      [
        `node -e 'console.log((1234567.891).toLocaleString(), (1.005).toLocaleString("en-US", { maximumFractionDigits: 2 }), (-2.5).toLocaleString("en-US", { maximumFractionDigits: 0 }), (0.256).toLocaleString("en-US", { style: "percent" }), (1234.5).toLocaleString(undefined, { style: "currency", currency: "USD" }), (5).toLocaleString("en", { minimumFractionDigits: 2 }), 12345n.toLocaleString())'`,
        `node -e 'const d = new Date(0); console.log(String(d)); console.log(d.toLocaleDateString(), d.toLocaleString())'`,
        `node -e 'console.log((1234).toLocaleString("de-DE"))'; echo "rc=$?"`,
      ].join('\n'),
    );
    expect(got.stdout).toBe('1,234,567.891 1.01 -3 26% $1,234.50 5.00 12,345\nThu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)\n1/1/1970 1/1/1970, 12:00:00 AM\nrc=2\n');
    expect(got.stderr).toBe('node: toLocaleString for the locale de-DE (Intl) is not available in the shell engine; run spritzer with --exec sandbox\n');
  }, 60_000);
});

describe("node's require of a package", () => {
  it("a package nowhere in node_modules is node's MODULE_NOT_FOUND with its require stack; one found there is refused loudly", async () => {
    const got = await runShell(
      [
        `node -e 'try { require("lodash") } catch (e) { console.log(e.code, JSON.stringify(e.message), e.requireStack) }'`,
        `echo 'try { require("x/y") } catch (e) { console.log(e.message) }' > t.js; node t.js`,
        `mkdir -p node_modules/left-pad; node -e 'require("left-pad")'; echo "rc=$?"`,
      ].join('\n'),
    );
    expect(got.stdout).toBe(`MODULE_NOT_FOUND "Cannot find module 'lodash'\\nRequire stack:\\n- /home/sprite/[eval]" [ '/home/sprite/[eval]' ]\nCannot find module 'x/y'\nRequire stack:\n- /home/sprite/t.js\nrc=2\n`);
    expect(got.stderr).toBe("node: require('left-pad') of a package in /home/sprite/node_modules/left-pad is not available in the shell engine; run spritzer with --exec sandbox\n");
  }, 60_000);
});

describe("node's fs errors, callbacks and promises; require.main", () => {
  it('errors carry code, errno, syscall and the path given; callback and promise forms run; node FILE is require.main', async () => {
    const got = await runShell(
      [
        `node -e 'const fs = require("fs"); for (const f of [() => fs.readFileSync("nope"), () => fs.mkdirSync("/etc"), () => fs.renameSync("a", "b")]) { try { f() } catch (e) { console.log(e.message, e.code, e.errno, e.syscall, e.path) } }'`,
        `echo hi > f; node -e 'const fs = require("fs"); fs.readFile("f", "utf8", (err, d) => console.log("cb", err, d.trim())); require("fs/promises").readFile("nope").catch((e) => console.log("promise", e.code)); console.log("first")'`,
        `echo 'console.log(require.main === module)' > m.js; node m.js; node -e 'console.log(require.main)'`,
      ].join('\n'),
    );
    expect(got.stdout).toBe(
      "ENOENT: no such file or directory, open 'nope' ENOENT -2 open nope\nEEXIST: file already exists, mkdir '/etc' EEXIST -17 mkdir /etc\n" +
        "ENOENT: no such file or directory, rename 'a' -> 'b' ENOENT -2 rename a\nfirst\npromise ENOENT\ncb null hi\ntrue\nundefined\n",
    );
  }, 60_000);
});

describe("node's crypto", () => {
  it('hashes and HMACs as node (hex, base64, base64url, Buffer), refuses an unknown digest, and what it lacks loudly', async () => {
    const got = await runShell(
      [
        `node -e 'const c = require("crypto"); console.log(c.createHash("sha256").update("x").digest("hex"), c.createHmac("sha256", "key").update("msg").digest("base64"), c.createHash("sha1").update("héllo").digest("base64url"), c.createHash("md5").digest().length)'`,
        `node -e 'try { require("crypto").createHash("nope") } catch (e) { console.log(e.message) }'`,
        `node -e 'const c = require("crypto"); console.log(c.randomBytes(12).length, c.randomUUID().length, c.randomInt(3, 4))'`,
        `node -e 'require("crypto").createCipheriv("aes-256-cbc", "k", "i")'; echo "status=$?"`,
      ].join('\n'),
    );
    expect(got.stdout).toBe(
      '2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881 LZPLwb4We8sWN6SiPL/wGnh48MUO6DOVTqUiG7G4xig= NbXqRcXkH3i0apN8x01B3-qSCJA 16\n' +
        'Digest method not supported\n12 36 3\nstatus=2\n',
    );
    expect(got.stderr).toBe('node: crypto.createCipheriv is not available in the shell engine; run spritzer with --exec sandbox\n');
  }, 60_000);
});

describe('node FILE', () => {
  it('runs with process.argv [node, its path, ...args], its own __filename, node-layout console.log and fs Stats/Dirents', async () => {
    const got = await runShell(
      `mkdir d && touch d/f && printf 'const fs = require("fs");\\nconsole.log(process.argv.slice(1), __filename === process.argv[1], __dirname);\\nconsole.log(["a"], { k: 1 });\\nconst [e] = fs.readdirSync("d", { withFileTypes: true });\\nconsole.log(e.name, e.isFile(), fs.statSync("d").isDirectory());\\n' > t.js && node t.js x y`,
    );
    expect(got).toEqual({ stdout: "[ '/home/sprite/t.js', 'x', 'y' ] true /home/sprite\n[ 'a' ] { k: 1 }\nf true true\n", stderr: '', exit: 0 });
  }, 60_000);
});
