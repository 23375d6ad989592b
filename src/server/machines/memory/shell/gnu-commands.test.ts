import { describe, expect, it } from 'vitest';
import { runShell, testSprite } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU coreutils 9 and sudo 1.9 print them on a sprite (the sprite user is uid 1001 in the groups sudo and users, passwordless sudo).

describe('id, whoami, groups', () => {
  it('know Ubuntu\'s nobody, and groups answers for each user operand, an unknown one reported (status 1)', async () => {
    expect(await runShell('id nobody; id -u nobody; groups nobody root nope_u')).toEqual({
      stdout: 'uid=65534(nobody) gid=65534(nogroup) groups=65534(nogroup)\n65534\nnobody : nogroup\nroot : root\n',
      stderr: "groups: 'nope_u': no such user\n",
      exit: 1,
    });
  });
  it('describe the sprite user', async () => {
    expect((await runShell('id -u; id -g; id -un; id -gn; whoami; groups')).stdout).toBe('1001\n1001\nsprite\nsprite\nsprite\nsprite sudo users\n');
    expect((await runShell('id')).stdout).toBe('uid=1001(sprite) gid=1001(sprite) groups=1001(sprite),27(sudo),100(users)\n');
    expect((await runShell('id root')).stdout).toBe('uid=0(root) gid=0(root) groups=0(root)\n');
  });
  it('fail on an unknown user, and loudly on an option they lack', async () => {
    expect(await runShell('id nobody_x')).toEqual({ stdout: '', stderr: "id: 'nobody_x': no such user\n", exit: 1 });
    // In a UTF-8 locale GNU quotes the name with ‘…’, as its other messages.
    expect(await runShell('export LANG=C.UTF-8; whoami extra; echo "s=$?"')).toEqual({
      stdout: 's=1\n',
      stderr: "whoami: extra operand ‘extra’\nTry 'whoami --help' for more information.\n",
      exit: 0,
    });
    expect(await runShell('LANG=C.UTF-8 id nobody_x')).toEqual({ stdout: '', stderr: 'id: ‘nobody_x’: no such user\n', exit: 1 });
    expect((await runShell('id -a')).stdout).toBe('uid=1001(sprite) gid=1001(sprite) groups=1001(sprite),27(sudo),100(users)\n');
    const r = await runShell('id -z');
    expect([r.exit, r.stderr]).toEqual([2, 'id: option -z is not available in the shell engine; run spritzer with --exec sandbox\n']);
  });
  it('id -Z says the kernel has no SELinux, as GNU id on a sprite', async () => {
    expect(await runShell('id -Z')).toEqual({ stdout: '', stderr: 'id: --context (-Z) works only on an SELinux-enabled kernel\n', exit: 1 });
  });
});

describe('sudo', () => {
  it('runs its command as root: id, whoami and the environment see root', async () => {
    expect((await runShell('sudo -n id -u; sudo whoami; sudo -n sh -c \'echo $USER $HOME $SUDO_USER\'')).stdout).toBe('0\nroot\nroot /root sprite\n');
  });
  it('passes on the status and output of its command, and the user is back after it', async () => {
    expect(await runShell('sudo sh -c "echo out; exit 3"; echo $?; id -u')).toEqual({ stdout: 'out\n3\n1001\n', stderr: '', exit: 0 });
  });
  it('refuses another user loudly', async () => {
    const r = await runShell('sudo -u bob id');
    expect([r.exit, r.stderr]).toEqual([2, 'sudo: option -u is not available in the shell engine; run spritzer with --exec sandbox\n']);
  });
});

describe('mktemp', () => {
  it('creates a 0600 file and a 0700 directory under /tmp with a fresh name each time', async () => {
    const r = await runShell('f=$(mktemp); d=$(mktemp -d); stat -c %a "$f" "$d"; test -f "$f" && test -d "$d" && echo ok; [ "$(mktemp)" != "$f" ] && echo fresh; echo "$f" | grep -c "^/tmp/tmp\\.[A-Za-z0-9]\\{10\\}$"');
    expect(r).toEqual({ stdout: '600\n700\nok\nfresh\n1\n', stderr: '', exit: 0 });
  });
  it('takes a template, -p, -t and --suffix', async () => {
    const r = await runShell('mktemp -p /home/sprite xXXXX | grep -c "^/home/sprite/x....$"; mktemp -t foo.XXX | grep -c "^/tmp/foo\\."; mktemp --suffix=.json | grep -c "\\.json$"; mktemp ./aXXXXX | grep -c "^\\./a"');
    expect(r.stdout).toBe('1\n1\n1\n1\n');
  });
  it('refuses a template with too few Xs', async () => {
    expect(await runShell('mktemp abX')).toEqual({ stdout: '', stderr: "mktemp: too few X's in template 'abX'\n", exit: 1 });
    // -q hides only a failure to create the file, never a bad template.
    expect(await runShell('mktemp -q abX; mktemp -q /nonexistent/XXXX; echo "s=$?"')).toEqual({ stdout: 's=1\n', stderr: "mktemp: too few X's in template 'abX'\n", exit: 0 });
  });
  it('takes what follows the last X as the suffix, as GNU mktemp; --suffix wants a template ending in X', async () => {
    const r = await runShell('export LANG=C.UTF-8; mktemp -u fooXXXXbar | grep -c "^foo....bar$"; mktemp -u aXXXb/cXXX | grep -c "^aXXXb/c...$"; mktemp -u fooXXbar; mktemp -u fooXXXbar --suffix=.x; mktemp -u XXX/x; mktemp -t x/XXX');
    expect(r).toEqual({
      stdout: '1\n1\n',
      stderr:
        "mktemp: too few X's in template ‘fooXXbar’\nmktemp: with --suffix, template ‘fooXXXbar’ must end in X\nmktemp: invalid suffix ‘/x’, contains directory separator\n" +
        'mktemp: invalid template, ‘x/XXX’, contains directory separator\n',
      exit: 1,
    });
  });
});

describe('install', () => {
  it('copies with mode 0755 (or -m), makes directories with -d and parents with -D', async () => {
    const r = await runShell('echo hi > a; install a b; install -m 0640 a c; install -d x/y; install -D a p/q/r; install a x/; stat -c %a b c x/y p/q/r x/a; cat p/q/r');
    expect(r).toEqual({ stdout: '755\n640\n755\n755\n755\nhi\n', stderr: '', exit: 0 });
  });
  it('fails on a missing source, and loudly on a symbolic mode', async () => {
    expect(await runShell('install nope x')).toEqual({ stdout: '', stderr: "install: cannot stat 'nope': No such file or directory\n", exit: 1 });
    expect((await runShell('echo > a; install -m u+x a b')).exit).toBe(2);
  });
  it('needs a DEST written with a trailing slash to be a directory, and names a blocked -D parent as given', async () => {
    const r = await runShell('echo a > a; touch f; install -D a x/y/; echo "s=$?"; ls x; install a f/; install -D a f/g/h; echo "s=$?"');
    expect(r).toEqual({
      stdout: 's=1\ns=1\n',
      stderr: "install: cannot create regular file 'x/y/': Not a directory\ninstall: cannot stat 'f/': Not a directory\ninstall: cannot create directory 'f': Not a directory\n",
      exit: 0,
    });
  });
  it('-v reports each directory -D or -d creates, then the copy', async () => {
    const r = await runShell('echo a > a; install -v -D a x/y/a; install -v -d p/q; install -v -D -t t1 a');
    expect(r.stdout).toBe("install: creating directory 'x'\ninstall: creating directory 'x/y'\n'a' -> 'x/y/a'\ninstall: creating directory 'p'\ninstall: creating directory 'p/q'\ninstall: creating directory 't1'\n'a' -> 't1/a'\n");
  });
  it('leaves a destination with the same bytes and mode alone with -C', async () => {
    const r = await runShell('echo x > a; install -C -m 644 a b; touch -d 2001-01-01 b; install -C -m 644 a b; date -r b +%Y; install -C a b; stat -c %a b; date -r b +%Y | grep -c 2001');
    expect(r).toEqual({ stdout: '2001\n755\n0\n', stderr: '', exit: 1 });
  });
});

describe('realpath', () => {
  it('resolves links, dots and missing last components as GNU does', async () => {
    const ctx = testSprite();
    await runShell('mkdir -p d/e; echo > f; ln -s f l; ln -s d/e le', ctx);
    const r = await runShell('realpath l d/../f le/../.. new; realpath -s l; realpath -m x/y/z; realpath --relative-to=d f', ctx);
    expect(r).toEqual({ stdout: '/home/sprite/f\n/home/sprite/f\n/home/sprite\n/home/sprite/new\n/home/sprite/l\n/home/sprite/x/y/z\n../f\n', stderr: '', exit: 0 });
  });
  it('prints paths below a --relative-base relative, others absolute', async () => {
    const r = await runShell('mkdir -p s/lib d; realpath --relative-base=. s/lib .; realpath --relative-base=s s/lib d /tmp; realpath --relative-to=s --relative-base=. d');
    expect(r).toEqual({ stdout: 's/lib\n.\nlib\n/home/sprite/d\n/tmp\n../d\n', stderr: '', exit: 0 });
  });
  it('fails when a directory component is missing', async () => {
    expect(await runShell('realpath nope/x')).toEqual({ stdout: '', stderr: 'realpath: nope/x: No such file or directory\n', exit: 1 });
  });
});

// Production's sprite user (useradd -u 1001 sprite; usermod -aG sudo,users sprite; its processes started by gosu,
// which gives them the groups that list it), as a Debian host prints it for a process of uid/gid 1001 with the
// groups 27 and 100 (setpriv --reuid 1001 --regid 1001 --groups 27,100), the names from the sprite's /etc files.
describe('the sprite user: uid 1001, gid 1001, groups sprite, sudo and users', () => {
  it('id, stat, ls -ln, $UID, GROUPS, python3 and perl agree, and /etc/passwd and /etc/group say so', async () => {
    const r = await runShell(
      [
        'cd /home/sprite && touch new',
        'id; id -u; id -g; id -G; id -Gn; groups; whoami',
        "stat -c '%u %g %U %G' new; ls -ln new | cut -d' ' -f3,4; ls -l new | cut -d' ' -f3,4",
        'echo "$UID $EUID ${GROUPS[*]}"',
        "python3 -c 'import os; print(os.getuid(), os.geteuid(), os.getgid(), os.getgroups())'",
        `perl -e 'print "$( | $)\\n"'`,
        "grep -E '^(sprite|sudo|users):' /etc/passwd /etc/group",
      ].join('\n'),
    );
    expect(r).toEqual({
      stdout: [
        'uid=1001(sprite) gid=1001(sprite) groups=1001(sprite),27(sudo),100(users)',
        '1001', '1001', '1001 27 100', 'sprite sudo users', 'sprite sudo users', 'sprite',
        '1001 1001 sprite sprite', '1001 1001', 'sprite sprite',
        '1001 1001 1001 27 100',
        '1001 1001 1001 [27, 100]',
        '1001 27 100 | 1001 27 100',
        '/etc/passwd:sprite:x:1001:1001::/home/sprite:/bin/bash',
        '/etc/group:sudo:x:27:sprite',
        '/etc/group:users:x:100:sprite',
        '/etc/group:sprite:x:1001:',
        '',
      ].join('\n'),
      stderr: '',
      exit: 0,
    });
  }, 60_000);

  it('a service (the plain user) may give its files its own groups only, and writes what its groups may', async () => {
    const ctx = testSprite();
    await runShell("sudo sh -c 'touch g s && chown root:users g && chmod 664 g s'", ctx);
    const r = await runShell(
      [
        'touch f; chgrp -v users f; stat -c "%g %G" f; chgrp sudo f && stat -c %g f; chgrp root f; echo "rc=$?"; chown 1001:100 f; echo "rc=$?"',
        'echo x >> g && echo wrote-g; (echo x >> s) 2>/dev/null; echo "rc=$?"',
        'test -G f || echo not-G; test -O f && echo O; [ -w g ] && echo w-g; [ -w s ] || echo not-w-s',
        "find . -maxdepth 1 -group users -printf '%p %u %g\\n' | sort",
        `python3 -c 'import os; print(os.access("g", os.W_OK), os.access("s", os.W_OK))'`,
      ].join('\n'),
      ctx,
      { service: true },
    );
    expect(r).toEqual({
      stdout: "changed group of 'f' from sprite to users\n100 users\n27\nrc=1\nrc=0\nwrote-g\nrc=1\nnot-G\nO\nw-g\nnot-w-s\n./f sprite users\n./g root users\nTrue False\n",
      stderr: "chgrp: changing group of 'f': Operation not permitted\n",
      exit: 0,
    });
  }, 60_000);

  it('sudo runs as root with root\'s groups, and says who called it', async () => {
    const r = await runShell('sudo id; sudo sh -c \'echo "$SUDO_USER $SUDO_UID $SUDO_GID"\'; sudo python3 -c \'import os; print(os.getgroups())\'');
    expect(r).toEqual({ stdout: 'uid=0(root) gid=0(root) groups=0(root)\nsprite 1001 1001\n[0]\n', stderr: '', exit: 0 });
  }, 60_000);
});
