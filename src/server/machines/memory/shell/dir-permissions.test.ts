/**
 * Directory permissions for the sprite user on the shell engine: `/`, `/usr`, `/etc` are root's (0755), so for the
 * plain sprite user (a service's commands) adding or removing entries there is `Permission denied`, `test -w` says
 * no; the user's own directories, `/tmp` (sticky) and the cwd work. Each script is compared with the host's bash
 * and GNU tools run as an unprivileged user. An exec session's sprite user holds CAP_DAC_OVERRIDE, CAP_FOWNER and
 * CAP_CHOWN (docs/fidelity.md "Root-level writes"): it writes there, and what it makes is its own (these answers are
 * the sandbox engine's, measured by the differential corpus; the host's own `/` is not written here). Under `sudo` a
 * command (and a shell it starts) acts as root: no checks, and what it makes is root's.
 */
import { describe, expect, it } from 'vitest';
import { engineBash, hostBashUnprivileged, hostHas } from '../../../../../test/support/host-bash.ts';

const asRootHost = process.getuid?.() === 0 && hostHas('setpriv');

describe.runIf(asRootHost)('directory permissions of the plain sprite user (a service), as Linux gives them to a non-root user', () => {
  it.each([
    "test -w / && echo root-writable || echo root-not-writable",
    "test -w /usr && echo w || echo nw; test -x /usr && echo x; test -r /etc && echo r; test -w . && echo here-w; test -w /tmp && echo tmp-w",
    "touch /usr/bin/probe-q 2>/dev/null; echo \"status=$?\"; rm -f /usr/bin/probe-q 2>/dev/null; true",
    "touch /usr/bin/x; echo $?",
    "LC_ALL=C mkdir /workspace; echo $?",
    "rm /etc/passwd; echo $?; test -f /etc/passwd && echo kept",
    "rm -f /etc/hostname; echo $?",
    "{ echo hi > /etc/new-file; } 2>&1 | sed 's/line 1: //'; test -e /etc/new-file || echo none",
    "ln -s /tmp /usr/link-here; echo $?",
    "mv /etc/passwd /tmp/pw; echo $?",
    "cp /etc/passwd /etc/passwd2; echo $?",
    "LC_ALL=C mkdir -p /opt/a/b; echo $?",
    "echo x > f; mv f /usr/f; echo $?; ls",
    "mkdir d; chmod 555 d; touch d/x; echo $?; rm -rf d; echo $?",
    "echo x > /tmp/mine-$$; rm /tmp/mine-$$ && echo removed",
    // rm -r goes on past an entry it cannot remove: the rest goes, each failure is reported once, status 1 (sorted:
    // the host walks in its readdir order).
    "mkdir -p d/sub e && touch d/a d/z d/sub/x e/f && chmod a-w d/sub; rm -rv d e 2>&1 | sort; echo ${PIPESTATUS[0]}; find d e | sort",
    "mkdir -p d/s1 d/s2 && touch d/s1/x d/s2/y && chmod a-w d/s1 d/s2; rm -rf d 2>&1 | sort; echo ${PIPESTATUS[0]}; find d | sort",
    "mkdir -p d/e d/f/g && touch d/f/g/x && chmod 000 d/e d/f/g; rm -rf d; echo $?; ls -d d/* 2>&1",
  ])('%s', async (script) => {
    expect(await engineBash(script, 'UTC', { service: true })).toEqual(hostBashUnprivileged(script));
  });
});

describe('root-level writes of an exec session’s sprite user (CAP_DAC_OVERRIDE, CAP_FOWNER, CAP_CHOWN)', () => {
  it.each([
    ['test -w / && echo root-writable; test -w /etc/passwd && echo passwd-writable; test -x /etc/passwd || echo passwd-not-x', 'root-writable\npasswd-writable\npasswd-not-x\n', ''],
    ['mkdir -p /workspace && cd /workspace && pwd && touch f && stat -c "%U:%G %a" /workspace f', '/workspace\nsprite:sprite 755\nsprite:sprite 644\n', ''],
    ['touch /var/log/x.log && mkdir -p /srv/x /opt/x/bin /mnt/x/y /run/app && stat -c "%U %n" /var/log/x.log /srv/x /opt/x/bin /mnt/x/y /run/app', 'sprite /var/log/x.log\nsprite /srv/x\nsprite /opt/x/bin\nsprite /mnt/x/y\nsprite /run/app\n', ''],
    ['echo hi >> /etc/hosts && tail -1 /etc/hosts && stat -c %U /etc/hosts; ls /root && echo root-listed', 'hi\nroot\nroot-listed\n', ''],
    ['chmod 600 /etc/hostname && chown sprite /etc/hostname && stat -c "%U %a" /etc/hostname && chown root:root /etc/hostname && stat -c %G /etc/hostname', 'sprite 600\nroot\n', ''],
    ['sudo touch /tmp/r; rm -f /tmp/r; echo $?; test -e /tmp/r || echo gone', '0\ngone\n', ''],
    ['rm /etc/hostname; echo $?; mv /etc/passwd /tmp/pw && mv /tmp/pw /etc/passwd && echo moved', '0\nmoved\n', ''],
    // What the kernel still refuses: a file with no x bit is not run, a directory is not executed, and access(2)
    // (python's os.access) drops the capabilities of a non-root user.
    ['printf "echo ran\\n" > /usr/local/bin/t && chmod 644 /usr/local/bin/t && /usr/local/bin/t; echo $?', '126\n', 'bash: line 1: /usr/local/bin/t: Permission denied\n'],
    ['python3 -c "import os; print(os.access(\'/etc/passwd\', os.W_OK), os.access(\'/root\', os.R_OK), os.access(\'/tmp\', os.W_OK))"', 'False False True\n', ''],
    ['id -u; id -un', '1001\nsprite\n', ''],
  ])('%s', async (script, stdout, stderr) => {
    expect(await engineBash(script)).toEqual({ stdout, stderr, exit: 0 });
  });
});

describe('sudo on the shell engine: the command runs as root', () => {
  it.each([
    ["sudo touch /usr/bin/x; echo $?; stat -c '%U %G %a' /usr/bin/x", '0\nroot root 644\n', ''],
    ['sudo mkdir -p /workspace/a && sudo chown -R sprite:sprite /workspace && touch /workspace/a/f && echo ok; stat -c %U /workspace', 'ok\nsprite\n', ''],
    ["sudo sh -c 'echo hi > /etc/motd2'; cat /etc/motd2; stat -c %U /etc/motd2", 'hi\nroot\n', ''],
    ["sudo bash -c 'test -w / && echo w; mkdir /opt/app && echo made'", 'w\nmade\n', ''],
    ['echo hi | sudo tee /etc/teed >/dev/null; cat /etc/teed', 'hi\n', ''],
    ['sudo rm /etc/hostname; test -e /etc/hostname || echo gone', 'gone\n', ''],
  ])('%s', async (script, stdout, stderr) => {
    expect(await engineBash(script)).toEqual({ stdout, stderr, exit: 0 });
  });

  // A service's plain sprite user, after sudo's root made something: root's files stay root's.
  it.each([
    ['sudo touch /tmp/r; rm -f /tmp/r; echo $?; test -e /tmp/r && echo kept', '1\nkept\n', "rm: cannot remove '/tmp/r': Operation not permitted\n"],
    ['sudo chmod 600 /etc/hosts; stat -c %a /etc/hosts; chmod 644 /etc/hosts; echo $?', '600\n1\n', "chmod: changing permissions of '/etc/hosts': Operation not permitted\n"],
    ['USER=root SUDO_USER=sprite touch /usr/bin/y; echo $?', '1\n', "touch: cannot touch '/usr/bin/y': Permission denied\n"],
  ])('as a service: %s', async (script, stdout, stderr) => {
    expect(await engineBash(script, 'UTC', { service: true })).toEqual({ stdout, stderr, exit: 0 });
  });
});
