import { describe, it, expect } from 'vitest';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { Vfs } from '../vfs.ts';
import { seedLinuxTree } from '../linux-skeleton.ts';
import type { SpriteContext } from '../engine.ts';
import { permissionTest, programTexts } from './perl-command.ts';
import { runShell, runShellWith } from '../../../../../test/support/shell-run.ts';
import { exitStatus, linuxErrno, PERL_MAX_PAGES, perlModule, withMemoryMax } from './perl-runner.ts';

const T = Date.UTC(2026, 10, 30, 9, 5, 0);
const ENV = { HOME: '/home/sprite', USER: 'sprite', PATH: '/usr/local/bin:/usr/bin:/bin' };

function sprite(): SpriteContext {
  let pid = 41;
  return { name: 'demo', vfs: seedLinuxTree(Vfs.skeleton(() => T), 'demo'), allocatePid: () => ++pid };
}

const sh = runShellWith;

const refusal = (what: string) => `perl: ${what} is not available in the shell engine; run spritzer with --exec sandbox\n`;

describe('programTexts: what perl would compile, read from its switches as perlrun(1) reads them', () => {
  const none = async () => null;
  it.each([
    [['-e', 'print 1'], ['print 1']],
    [['-lane', 'print $F[0]', 'f'], ['print $F[0]']],
    [['-F:', '-e', 'x', '-e', 'y'], ['x', 'y']],
    [['-eprint 2'], ['print 2']],
    [['-i.bak', '-pe', 's/a/b/', 'f'], ['s/a/b/']],
    [['-I', 'lib', '-M', 'Foo', '-e', 'z'], ['z']],
    [['-0777', '-ne', 'w'], ['w']],
  ])('%j', async (args, codes) => {
    expect(await programTexts(args, none, () => 'STDIN')).toEqual(codes);
  });

  it('a script operand is read; no program at all is stdin', async () => {
    expect(await programTexts(['-w', 'script.pl', 'arg'], async (n) => `file:${n}`, () => '')).toEqual(['file:script.pl']);
    expect(await programTexts(['--', '-e'], async (n) => `file:${n}`, () => '')).toEqual(['file:-e']);
    expect(await programTexts([], none, () => 'from stdin')).toEqual(['from stdin']);
    expect(await programTexts(['-'], none, () => 'dash')).toEqual(['dash']);
  });
});

describe('permissionTest: the file tests the shell engine refuses', () => {
  it.each([
    ['print -x $f', '-x'],
    ['if (-w "file") {}', '-w'],
    ['-r _ and print', '-r'],
    ['print -o(STDIN)', '-o'],
    ['-u FH', '-u'],
  ])('%s → %s', (code, test) => expect(permissionTest(code)).toBe(test));

  it.each(['print -e $f, -s "a", -d _, -f $x', 's/-x//', '#!/usr/bin/perl -w\nprint 1', 'my %h = (-r => 1)', 'print "$x-r"'])('%s is none', (code) => {
    expect(permissionTest(code)).toBeNull();
  });
});

describe('exitStatus: perl\'s status as Linux perl gives it', () => {
  it('a program that ran: its status; a fatal die with $! set: Linux\'s errno for it', () => {
    expect(exitStatus({ code: 3, running: true, report: null, lastErrno: 0 })).toBe(3);
    expect(exitStatus({ code: 256, running: true, report: null, lastErrno: 0 })).toBe(0);
    // WASI's ENOENT is 44, Linux's 2.
    expect(exitStatus({ code: 44, running: true, report: { kind: 'die', values: [44, 0] }, lastErrno: 0 })).toBe(2);
    expect(exitStatus({ code: 255, running: true, report: { kind: 'die', values: [0, 0] }, lastErrno: 0 })).toBe(255);
    expect(exitStatus({ code: 3, running: true, report: { kind: 'die', values: [0, 3 << 8] }, lastErrno: 0 })).toBe(3);
    // An exit after a die that an eval caught is the exit's.
    expect(exitStatus({ code: 7, running: true, report: { kind: 'die', values: [44, 0] }, lastErrno: 0 })).toBe(7);
  });

  it('a run stopped while compiling: BEGIN\'s exit, the die\'s status, the failed open of the script, else 255', () => {
    expect(exitStatus({ code: -1, running: false, report: { kind: 'exit', values: [4] }, lastErrno: 0 })).toBe(4);
    expect(exitStatus({ code: -1, running: false, report: { kind: 'die', values: [0, 0] }, lastErrno: 0 })).toBe(255);
    expect(exitStatus({ code: -1, running: false, report: null, lastErrno: 44 })).toBe(2);
    expect(exitStatus({ code: -1, running: false, report: null, lastErrno: 2 })).toBe(13);
    expect(exitStatus({ code: -1, running: false, report: null, lastErrno: 0 })).toBe(255);
    expect(linuxErrno(31)).toBe(21);
  });
});

describe('the WebAssembly module', () => {
  it('gets a memory maximum of 1 GiB, its minimum kept, and compiles', async () => {
    const wasm = readFileSync(new URL('../../../../../node_modules/@6over3/zeroperl-ts/dist/esm/zeroperl.wasm', import.meta.url));
    const limited = withMemoryMax(new Uint8Array(wasm), PERL_MAX_PAGES);
    const mod = await WebAssembly.compile(limited);
    expect(WebAssembly.Module.exports(mod).some((e) => e.name === 'zeroperl_init_with_args')).toBe(true);
    expect(await perlModule()).toBe(await perlModule());
  });

  it('is loaded only when perl runs: the command imports the runner lazily', () => {
    const source = readFileSync(new URL('./perl-command.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/^import[^;]*perl-runner/m);
    expect(source).toMatch(/await import\('\.\/perl-runner\.ts'\)/);
  });
});

describe('perl runs on the sprite\'s files', () => {
  it('-pi edits in place keeping the mode; -i.bak keeps a backup; -n, -l, -a, -F and stdin work', async () => {
    const r = await sh(`printf 'abc\\nxbz\\n' > f; chmod 750 f; perl -pi -e 's/b/B/' f; cat f; ls -l f | cut -c1-10; perl -i.bak -pe 's/a/A/' f; cat f.bak f; echo 'x y z' | perl -lane 'print $F[2]'; printf 'a:1\\nb:2\\n' | perl -F: -lane '$s += $F[1]; END { print $s }'`);
    expect(r).toEqual({ stdout: 'aBc\nxBz\n-rwxr-x---\naBc\nxBz\nABc\nxBz\nz\n3\n', stderr: '', exit: 0 });
  }, 60_000);

  it('a script file with arguments, $0, %ENV, the current directory, exit and die statuses', async () => {
    const r = await sh(`mkdir d; printf 'use Cwd; print "$0 @ARGV $ENV{HOME} ", getcwd(), "\\\\n"; exit 5;\\n' > d/s.pl; cd d; perl s.pl a b; echo "rc=$?"; perl -e 'die "x\\n"'; echo "rc=$?"; perl -e 'open(F, "<", "nope") or die "no: $!\\n"'; echo "rc=$?"; perl nope.pl; echo "rc=$?"`);
    expect(r).toEqual({
      stdout: 's.pl a b /home/sprite /home/sprite/d\nrc=5\nrc=255\nrc=2\nrc=2\n',
      stderr: 'x\nno: No such file or directory\nCan\'t open perl script "nope.pl": No such file or directory\n',
      exit: 0,
    });
  }, 60_000);

  it('a service\'s sprite user cannot write root\'s files, an exec session\'s can (CAP_DAC_OVERRIDE); sudo perl runs as root', async () => {
    const script = `perl -e 'open(my $f, ">>", "/etc/hosts") or die "no: $!\\n"; print $f "# mine\\n"'; echo "rc=$?"; sudo perl -e 'open(my $f, ">>", "/etc/hosts") or die; print $f "# perl\\n"; print "$<\\n"'; tail -2 /etc/hosts`;
    const service = await runShell(script, undefined, { service: true });
    expect(service).toEqual({ stdout: 'rc=13\n0\n::1\tlocalhost ip6-localhost ip6-loopback\n# perl\n', stderr: 'no: Permission denied\n', exit: 0 });
    const exec = await runShell(script);
    expect(exec).toEqual({ stdout: 'rc=0\n0\n# mine\n# perl\n', stderr: '', exit: 0 });
  }, 60_000);

  it('sees the sprite\'s tree, never the host\'s', async () => {
    const secret = `/tmp/perl-host-only-${process.pid}`;
    writeFileSync(secret, 'host\n');
    try {
      const r = await sh(`perl -e 'print -e "${secret}" ? "host\\n" : "sprite\\n"; open(my $f, "<", "/etc/hostname") or die; print <$f>'`);
      expect(r).toEqual({ stdout: 'sprite\ndemo\n', stderr: '', exit: 0 });
    } finally {
      rmSync(secret, { force: true });
    }
  }, 60_000);

  it('stat gives mode and owner; umask, mkdir and chmod act on the sprite; getpwuid reads its /etc/passwd', async () => {
    const r = await sh(`perl -e 'printf "%o %d\\n", (stat "/etc/passwd")[2] & 07777, (stat "/etc/passwd")[4]; printf "%o\\n", umask; umask 077; open(my $f, ">", "n") or die; mkdir "d", 0750; chmod 0600, "/home/sprite/n"; print scalar(getpwuid($<)), "\\n"'; ls -ld n d | cut -c1-10`);
    expect(r).toEqual({ stdout: '644 0\n22\nsprite\ndrwx------\n-rw-------\n', stderr: '', exit: 0 });
  }, 60_000);
});

describe('perl: what the shell engine cannot run fails at once, loudly', () => {
  it.each([
    [`perl -e 'system("ls"); print "after\\n"'; echo "rc=$?"`, refusal('running a program (system)')],
    [`perl -e 'print \`ls\`; print "after\\n"'; echo "rc=$?"`, refusal('running a program (backticks, qx)')],
    [`perl -e 'open(my $p, "ls |"); print "after\\n"'; echo "rc=$?"`, refusal('running a program (open of a pipe)')],
    [`perl -e 'exec("ls") or print "after\\n"'; echo "rc=$?"`, refusal('running a program (exec)')],
    [`perl -e 'fork; print "after\\n"'; echo "rc=$?"`, refusal('fork')],
    [`perl -e 'print -x "/bin/ls" ? "after\\n" : "after\\n"'; echo "rc=$?"`, refusal('the file test -x (permission bits and owners)')],
  ])('%s', async (script, stderr) => {
    expect(await sh(script)).toEqual({ stdout: 'rc=255\n', stderr, exit: 0 });
  }, 60_000);

  it('a module the build lacks dies naming --exec sandbox; an eval { require } still falls back', async () => {
    const r = await sh(`perl -MPOSIX -e 1; echo "rc=$?"; perl -e 'eval { require Socket; 1 } or print "fallback\\n"'`);
    expect(r).toEqual({ stdout: 'rc=2\nfallback\n', stderr: "Can't locate POSIX.pm: the module is not available in the shell engine; run spritzer with --exec sandbox\nBEGIN failed--compilation aborted.\n", exit: 0 });
  }, 60_000);

  it("perl -e '1 while 1' is stopped at --shell-timeout, with the message naming the flag", async () => {
    const started = Date.now();
    const r = await sh(`perl -e '1 while 1'; echo "rc=$?"`, { limits: { maxCommands: 1e9, timeoutMs: 1500 } });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.exit).toBe(124);
    expect(r.stderr).toMatch(/sh: the shell engine ended this command after 1500 ms \(--shell-timeout\); raise it or run spritzer with --exec sandbox\n$/);
  }, 60_000);

  it("timeout 1 perl -e '1 while 1' ends after a second with timeout's 124; a #! script runs through perl", async () => {
    const started = Date.now();
    const r = await sh(`timeout 1 perl -e '1 while 1'; echo "rc=$?"; printf '#!/usr/bin/env perl\\nprint "ran $0\\\\n";\\n' > t.pl; chmod +x t.pl; ./t.pl`);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r).toEqual({ stdout: 'rc=124\nran ./t.pl\n', stderr: '', exit: 0 });
  }, 60_000);

  it("perl -e '1 while 1' ends when the exec is killed", async () => {
    const started = Date.now();
    const r = await sh(`perl -e '1 while 1'`, { onStart: (p) => void setTimeout(() => p.signal('KILL'), 1500) });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.exit).toBe(137);
  }, 60_000);
});
