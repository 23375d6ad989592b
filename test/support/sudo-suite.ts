/**
 * One suite for the agent-backed engines (sandbox, container): `sudo` in a sprite, through spritzer's public exec,
 * fs and checkpoint API, as the sprite user. The agent-mediated sudo (src/agent/sudo.ts) runs commands as root of
 * the sprite (of its user namespace on sandbox, of the container on container), with the caller's stdin, output,
 * exit status and a pseudo-terminal when the exec has one. The caller starts and stops the server; the suite makes
 * its sprite in a `beforeAll` (so declare it inside the `describe` whose own `beforeAll` started the server).
 * Test support only.
 */
import { beforeAll, expect, it } from 'vitest';
import { api, execQuery, wsExec } from './server.ts';
import { SPRITE_UID as SPRITE_USER_UID } from '../../src/protocol/sprite-tree.ts';

/** The sprite user's uid on both engines' images (test image and sandbox: `sprite:x:1001:1001::/home/sprite:/bin/bash`). */
const SPRITE_UID = String(SPRITE_USER_UID);

/** Declares the suite's tests against the server whose URL `base()` gives once it started, on sprite `sprite`. */
export function sudoSuite(base: () => string, sprite = 'su', timeoutMs = 60_000): void {
  const call = (...a: Parameters<ReturnType<typeof api>>) => api(base())(...a);
  const run = (argv: string[], opts: Parameters<typeof execQuery>[1] = {}, send?: Parameters<typeof wsExec>[2]) =>
    wsExec(base(), `/v1/sprites/${sprite}/exec?${execQuery(argv, opts)}`, send);
  const sh = (script: string) => ['bash', '-c', script];

  beforeAll(async () => {
    expect((await call('POST', '/v1/sprites', { name: sprite })).status).toBe(201);
  }, timeoutMs);

  it(`sudo -n true exits 0; sudo -n id -u prints 0 while id -u prints ${SPRITE_UID}`, async () => {
    expect((await run(['sudo', '-n', 'true'])).exitCode).toBe(0);
    const id = await run(['sudo', '-n', 'id', '-u']);
    expect([id.stdout, id.exitCode]).toEqual(['0\n', 0]);
    expect((await run(['id', '-u'])).stdout).toBe(`${SPRITE_UID}\n`);
    expect((await run(['sudo', '-n', 'id', '-g'])).stdout).toBe('0\n');
  }, timeoutMs);

  it('passes the exit status through: sudo -n sh -c "exit 7" exits 7', async () => {
    const r = await run(['sudo', '-n', 'sh', '-c', 'echo out; echo err >&2; exit 7']);
    expect([r.stdout, r.stderr, r.exitCode]).toEqual(['out\n', 'err\n', 7]);
  }, timeoutMs);

  it('relays stdin: echo hi | sudo tee /etc/x writes a root-owned file', async () => {
    const r = await run(sh('echo hi | sudo tee /etc/x; stat -c "%U %a" /etc/x; cat /etc/x'));
    expect([r.stdout, r.exitCode]).toEqual(['hi\nroot 644\nhi\n', 0]);
    const piped = await run(['sudo', 'sha256sum'], { stdin: true }, (ws) => {
      ws.send(Buffer.concat([Buffer.from([0]), Buffer.from('abc')]));
      ws.send(Buffer.from([4]));
    });
    expect(piped.stdout).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  -\n');
  }, timeoutMs);

  it('sudo mkdir /workspace && sudo chown sprite:sprite: the sprite user then writes there; the fs API sees it; checkpoint/restore rewinds it', async () => {
    // An exec session makes root-level directories itself, as the sprite user (docs/fidelity.md "Root-level
    // writes"); what sudo makes is root's until chowned.
    expect((await run(sh('sudo mkdir /by-root && mkdir /by-sprite && stat -c %U /by-root /by-sprite'))).stdout).toBe('root\nsprite\n');
    const r = await run(sh('sudo mkdir -p /workspace && sudo chown sprite:sprite /workspace && echo hi > /workspace/a && stat -c "%U:%G" /workspace'));
    expect([r.stdout, r.exitCode]).toEqual(['sprite:sprite\n', 0]);
    const listed = await call('GET', `/v1/sprites/${sprite}/fs/list?path=/workspace`);
    expect(listed.status).toBe(200);
    expect(listed.text).toContain('"a"');
    expect((await call('GET', `/v1/sprites/${sprite}/fs/read?path=/workspace/a`)).text).toBe('hi\n');
    const created = await call('POST', `/v1/sprites/${sprite}/checkpoint`, { comment: 'workspace' });
    const id = /Checkpoint (v\d+) created/.exec(created.text)![1];
    await run(sh('sudo rm -rf /workspace; sudo sh -c "echo changed > /etc/x"'));
    expect((await call('POST', `/v1/sprites/${sprite}/checkpoints/${id}/restore`)).text).toContain('"type":"complete"');
    const after = await run(sh('cat /workspace/a; stat -c "%U:%G" /workspace; cat /etc/x'));
    expect(after.stdout).toBe('hi\nsprite:sprite\nhi\n');
  }, timeoutMs);

  it('runs as root with sudo’s environment: HOME=/root, secure_path, TERM kept, SUDO_USER, the caller’s cwd', async () => {
    const r = await run(['sudo', 'sh', '-c', 'echo "$HOME|$PATH|$TERM|$USER|$SUDO_USER|$SUDO_UID|$(pwd)|${SECRET-unset}"'], { env: ['TERM=xterm-256color', 'SECRET=1', 'PATH=/usr/bin:/bin'], dir: '/tmp' });
    expect(r.stdout).toBe(`/root|/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin|xterm-256color|root|sprite|${SPRITE_UID}|/tmp|unset\n`);
    const keep = await run(['sudo', '-E', 'sh', '-c', 'echo "$HOME|${SECRET-unset}"'], { env: ['HOME=/home/sprite', 'SECRET=1', 'PATH=/usr/bin:/bin'] });
    expect(keep.stdout).toBe('/home/sprite|1\n');
    const login = await run(['sudo', '-i', 'pwd']);
    expect(login.stdout).toBe('/root\n');
    const asSprite = await run(['sudo', '-u', 'sprite', 'id', '-un']);
    expect(asSprite.stdout).toBe('sprite\n');
    // sudo gives the target user its groups, as initgroups(3) does: root its own, the sprite user sudo and users too.
    expect((await run(['sudo', 'id'])).stdout).toBe('uid=0(root) gid=0(root) groups=0(root)\n');
    expect((await run(['sudo', '-u', 'sprite', 'id'])).stdout).toBe('uid=1001(sprite) gid=1001(sprite) groups=1001(sprite),27(sudo),100(users)\n');
    expect((await run(['sudo', '-u', '0', 'id', '-u'])).stdout).toBe('0\n');
  }, timeoutMs);

  it('options: -v, -k, -l succeed; an unknown option, an unknown user or command fail like sudo (1, message on stderr)', async () => {
    expect((await run(['sudo', '-v'])).exitCode).toBe(0);
    expect((await run(['sudo', '-k'])).exitCode).toBe(0);
    expect((await run(['sudo', '-n', '-l'])).stdout).toContain('NOPASSWD: ALL');
    const bad = await run(['sudo', '-Z', 'true']);
    expect([bad.exitCode, bad.stderr.split('\n')[0]]).toEqual([1, "sudo: invalid option -- 'Z'"]);
    expect((await run(['sudo', '-u', 'nobody-here', 'true'])).stderr).toBe('sudo: unknown user nobody-here\n');
    const missing = await run(['sudo', 'no-such-command']);
    expect([missing.exitCode, missing.stderr]).toEqual([1, 'sudo: no-such-command: command not found\n']);
  }, timeoutMs);

  it('a TTY exec running sudo -n bash gets a root prompt on a terminal of its own, resized with the exec', async () => {
    const rec = await run(['sudo', '-n', 'bash', '--norc', '-i'], { tty: true, stdin: true, rows: 30, cols: 100, env: ['TERM=xterm', 'PATH=/usr/local/bin:/usr/bin:/bin'] }, (ws) => {
      // Each step waits for what the previous one prints: the prompt, the trap's answer to the resize.
      let seen = '';
      const steps: Array<[RegExp, () => void]> = [
        [/# $/, () => ws.send(Buffer.from("trap 'stty size' WINCH; id -u; tty; stty size\r"))],
        [/30 100\r\n[^]*# $/, () => ws.send(JSON.stringify({ type: 'resize', cols: 120, rows: 40 }))],
        [/40 120\r\n/, () => ws.send(Buffer.from('exit 3\r'))],
      ];
      ws.on('message', (data, isBinary) => {
        if (!isBinary) return;
        seen += Buffer.from(data as Buffer).toString();
        if (steps.length && steps[0]![0].test(seen)) steps.shift()![1]();
      });
    });
    expect(rec.stdout).toMatch(/bash-[\d.]+# /); // root's prompt
    expect(rec.stdout).toMatch(/\r0\r\n\/dev\/pts\/\d+\r\n30 100\r\n/);
    expect(rec.stdout).toContain('40 120\r\n');
    expect(rec.exitCode).toBe(3);
  }, timeoutMs);
}
