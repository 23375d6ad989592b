/**
 * On the container engine, writes made on the sprite's behalf follow no link the sprite's code planted, and the fs
 * API refuses `/proc` and `/sys`: the same corpus as test/sandbox/host-writes.test.ts, at the Machine port, on a
 * real container (the agent is the same program, so this proves the engine passes `noFollow` through).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContainerMachineFactory, type ContainerMachine } from '../../src/server/machines/container/container-machine.ts';
import type { Machine } from '../../src/server/machines/port.ts';
import { announceSkip, cleanNamespace, testContainer } from './support.ts';

const NAMESPACE = 'ctest-hostwrites';
const skip = await announceSkip('container host-side writes');
let factory: ContainerMachineFactory;
let m: ContainerMachine;
const bytes = (s: string) => new TextEncoder().encode(s);

/** Runs `sh -c script` as the sprite user; resolves with its output and exit code. */
function sh(machine: Machine, script: string): Promise<{ out: string; err: string; code: number }> {
  let out = '';
  let err = '';
  const p = machine.spawn(
    { argv: ['sh', '-c', script], env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/home/sprite' }, dir: '/home/sprite', tty: false, rows: 24, cols: 80 },
    { stdout: (d) => (out += Buffer.from(d).toString()), stderr: (d) => (err += Buffer.from(d).toString()) },
    { stdin: false },
  );
  return p.exit.then((code) => ({ out, err, code }));
}
const text = async (p: string) => Buffer.from(await m.fs.readFile(p)).toString('utf8');

beforeAll(async () => {
  if (skip) return;
  await cleanNamespace(NAMESPACE);
  factory = await ContainerMachineFactory.open({ api: undefined, ...testContainer(NAMESPACE) });
  m = await factory.create({ name: 'hw', id: 'sprite-hw1' });
});
afterAll(async () => {
  await factory?.close();
});

describe.skipIf(skip)('container: host-side writes and kernel files', () => {
  it('PUT fs/write into /proc/sys (directly or through a planted link) is EACCES and writes nothing', async () => {
    const before = await text('/proc/sys/kernel/domainname');
    await expect(m.fs.writeFile('/proc/sys/kernel/domainname', bytes('owned'))).rejects.toMatchObject({ code: 'EACCES' });
    expect((await sh(m, 'ln -s /proc/sys/kernel/domainname /tmp/dn')).code).toBe(0);
    await expect(m.fs.writeFile('/tmp/dn', bytes('owned'))).rejects.toMatchObject({ code: 'EACCES', path: '/tmp/dn' });
    expect(await text('/proc/sys/kernel/domainname')).toBe(before);
    await expect(m.fs.writeFile('/sys/kernel/x', bytes('x'))).rejects.toMatchObject({ code: 'EACCES' });
  });

  it('a symlinked service log is replaced, never written through (to /etc/passwd or /proc/sys)', async () => {
    const passwd = await text('/etc/passwd');
    const domain = await text('/proc/sys/kernel/domainname');
    // The first log write makes the directory, owned by the sprite user (as the services model does).
    await m.fs.writeFile('/.sprite/logs/services/first.log', bytes(''), { mkdirParents: true, noFollow: true });
    const planted = await sh(m, 'ln -s /etc/passwd /.sprite/logs/services/p.log && ln -s /proc/sys/kernel/domainname /.sprite/logs/services/d.log');
    expect(planted.code, planted.err).toBe(0);
    for (const name of ['p', 'd']) {
      await m.fs.writeFile(`/.sprite/logs/services/${name}.log`, bytes('/tmp/evil.so\n'), { append: true, mkdirParents: true, noFollow: true });
      expect((await m.fs.lstat(`/.sprite/logs/services/${name}.log`)).type).toBe('file');
    }
    expect(await text('/etc/passwd')).toBe(passwd);
    expect(await text('/proc/sys/kernel/domainname')).toBe(domain);
  });
});
