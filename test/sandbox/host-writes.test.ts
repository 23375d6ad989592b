/**
 * Host-side writes on a sprite's behalf never follow a link the sprite's code planted: the service log, the network
 * policy copy, the `sprite-env` shim and the other `/.sprite` files are written beneath the sprite's root without
 * following any symlink, and the fs API refuses writes into `/proc` and `/sys` (a write to `/proc/sys` sets a
 * host-global kernel setting). Each link of the corpus points at a host canary (a root-only file in the sprite's
 * host directory, bound at `/.sprite/run`), at a root-owned file of the sprite (`/etc/passwd`) and at `/proc/sys`
 * (`kernel/domainname`: per UTS namespace, so a failure of this test changes nothing outside the sprite).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, execQuery, startTestServer, wsExec, TOKEN } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('sandbox host-side writes');
const CANARY = 'HOST-CANARY\n';
let srv: RunningServer;
let call: ReturnType<typeof api>;
let dataDir: string;
let hostCanary: string;

/** Runs `script` with `sh -c` in sprite `acme` as the sprite user; resolves with stdout, stderr and the exit code. */
async function asSprite(script: string) {
  const rec = await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(['sh', '-c', script])}`);
  return { out: rec.stdout, err: rec.stderr, code: rec.exitCode };
}

/** Root-side reads inside the sprite (the fs API). */
async function spriteText(path: string): Promise<string> {
  const r = await call('GET', `/v1/sprites/acme/fs/read?path=${encodeURIComponent(path)}`);
  return r.text;
}

/** What a reboot left at the host canary's path (`absent` when nothing was written through a link). */
async function canaryAfterReboot(): Promise<string> {
  return readFile(hostCanary, 'utf8').catch(() => 'absent');
}

/** Waits until every service log write queued so far is done (a read of the logs goes after them). */
async function waitForLogs(): Promise<void> {
  for (let i = 0; i < 3; i++) expect((await call('GET', `/v1/sprites/acme/services/evil${i}/logs`)).status).toBeLessThan(500);
}

beforeAll(async () => {
  if (skip) return;
  dataDir = await mkdtemp(join(tmpdir(), 'spritzer-hostwrites-'));
  await chmod(dataDir, 0o711); // the sprites' own host uids walk through it to their layers
  srv = await startTestServer('sandbox', { token: TOKEN }, { dataDir: join(dataDir, 'data') });
  call = api(srv.url);
  const made = await call('POST', '/v1/sprites', { name: 'acme' });
  expect(made.status, made.text).toBe(201);
  const [id] = await readdir(join(dataDir, 'data', 'sprites'));
  hostCanary = join(dataDir, 'data', 'sprites', id!, 'run', 'canary');
  await writeFile(hostCanary, CANARY, { mode: 0o600 });
});
afterAll(async () => {
  await srv?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe.skipIf(skip)('the fs API refuses /proc and /sys', () => {
  it('PUT fs/write into /proc/sys is refused with the fs envelope and writes nothing', async () => {
    const path = '/proc/sys/kernel/domainname';
    const before = await readFile('/proc/sys/kernel/domainname', 'utf8');
    const r = await call('PUT', `/v1/sprites/acme/fs/write?path=${encodeURIComponent(path)}`, new TextEncoder().encode('owned'));
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ code: 'EACCES', path });
    expect(await spriteText(path)).toBe(before);
  });

  it('a host-global sysctl is refused too (written back with its own value, so nothing changes either way)', async () => {
    const path = '/proc/sys/fs/inotify/max_user_instances';
    const value = await readFile(path);
    const r = await call('PUT', `/v1/sprites/acme/fs/write?path=${encodeURIComponent(path)}`, value);
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ code: 'EACCES', path });
  });

  it('a symlink the sprite planted into /proc/sys is refused the same way', async () => {
    expect((await asSprite('ln -s /proc/sys/kernel/domainname /tmp/dn')).code).toBe(0);
    const r = await call('PUT', '/v1/sprites/acme/fs/write?path=/tmp/dn', new TextEncoder().encode('owned'));
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ code: 'EACCES', path: '/tmp/dn' });
    expect(await spriteText('/proc/sys/kernel/domainname')).not.toContain('owned');
  });

  it('fs/write into /.sprite/run (a host directory, outside the disk quota) is refused and lands nowhere', async () => {
    const r = await call('PUT', '/v1/sprites/acme/fs/write?path=/.sprite/run/fill', new TextEncoder().encode('x'.repeat(4096)));
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ code: 'EACCES', path: '/.sprite/run/fill' });
    await expect(readFile(join(hostCanary, '..', 'fill'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('mkdir, chmod and rename into /proc or /sys are refused', async () => {
    expect((await call('PUT', '/v1/sprites/acme/fs/write?path=/sys/x&mkdir=true', new TextEncoder().encode('x'))).json).toMatchObject({ code: 'EACCES' });
    const chmod = await call('POST', '/v1/sprites/acme/fs/chmod', { path: '/proc/sys/kernel/domainname', mode: '0666' });
    expect(chmod.status).toBe(403);
    expect(chmod.json).toMatchObject({ code: 'EACCES' });
  });
});

describe.skipIf(skip)('host-side writes follow no link the sprite planted', () => {
  const targets = () => [
    ['a host canary', '/.sprite/run/canary'],
    ['/etc/passwd', '/etc/passwd'],
    ['/proc/sys', '/proc/sys/kernel/domainname'],
  ];

  it('the service log: a symlinked log file gets no line, through a create and a reboot by restore', async () => {
    const passwd = await spriteText('/etc/passwd');
    const domain = await spriteText('/proc/sys/kernel/domainname');
    const links = targets().map(([, to], i) => `ln -s ${to} /.sprite/logs/services/evil${i}.log`).join(' && ');
    const planted = await asSprite(links);
    expect(planted.code, planted.err).toBe(0);
    for (let i = 0; i < targets().length; i++) {
      const r = await call('PUT', `/v1/sprites/acme/services/evil${i}?duration=1s`, { cmd: 'echo', args: ['/tmp/evil.so'] });
      expect(r.status).toBe(200);
    }
    await waitForLogs();
    expect(await readFile(hostCanary, 'utf8')).toBe(CANARY);
    expect((await call('POST', '/v1/sprites/acme/checkpoint', { comment: 'with links' })).status).toBe(200);
    expect((await call('POST', '/v1/sprites/acme/checkpoints/v1/restore')).text).toContain('complete');
    // The reboot made `/.sprite/run` afresh: a write through the link would have created the canary.
    expect(await canaryAfterReboot()).toBe('absent');
    expect(await spriteText('/etc/passwd')).toBe(passwd);
    expect(await spriteText('/proc/sys/kernel/domainname')).toBe(domain);
    expect(await spriteText('/etc/ld.so.preload').catch(() => '')).not.toContain('evil');
    const after = await asSprite('echo alive; cat /etc/ld.so.preload 2>/dev/null; true');
    expect(after.out).toBe('alive\n');
  });

  it('the network policy copy is not written (nor chmod-ed) through a symlinked /.sprite/policy/network.json', async () => {
    const passwd = await spriteText('/etc/passwd');
    const policy = (domain: string) => call('POST', '/v1/sprites/acme/policy/network', { rules: [{ domain, action: 'allow' }] });
    expect((await policy('example.com')).status).toBe(204);
    const r = await asSprite('rm -f /.sprite/policy/network.json && ln -s /etc/passwd /.sprite/policy/network.json');
    expect(r.code, r.err).toBe(0);
    expect((await policy('example.org')).status).toBe(204);
    expect(await spriteText('/etc/passwd')).toBe(passwd);
    expect((await asSprite('stat -c %a /etc/passwd')).out.trim()).toBe('644');
    expect(await spriteText('/.sprite/policy/network.json')).toContain('example.org');
  });

  it('the sprite-env and sudo shims and version file: symlinks planted there are replaced at boot, never written through', async () => {
    const passwd = await spriteText('/etc/passwd');
    const r = await asSprite(
      'rm -f /usr/local/bin/sprite-env /usr/local/bin/sudo /.sprite/version.txt 2>/dev/null; ln -s /etc/passwd /usr/local/bin/sprite-env; ln -s /etc/passwd /usr/local/bin/sudo',
    );
    expect(r.code).toBe(0);
    expect((await call('POST', '/v1/sprites/acme/checkpoint', { comment: 'shim links' })).status).toBe(200);
    expect((await call('POST', '/v1/sprites/acme/checkpoints/v2/restore')).text).toContain('complete');
    expect(await canaryAfterReboot()).toBe('absent');
    expect(await spriteText('/etc/passwd')).toBe(passwd);
    expect((await asSprite('stat -c %a /etc/passwd')).out.trim()).toBe('644');
    const shim = await asSprite('test -L /usr/local/bin/sprite-env && echo link; sprite-env services list >/dev/null && echo works');
    expect(shim.out).toBe('works\n');
    const sudo = await asSprite('test -L /usr/local/bin/sudo && echo link; /usr/local/bin/sudo -n id -u');
    expect(sudo.out).toBe('0\n');
  });
});
