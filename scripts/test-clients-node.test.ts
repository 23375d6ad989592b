/**
 * scripts/test-clients-node.mjs without a registry or a real server: the server start (ready line, health wait, a
 * server that exits first, stop ending the whole process group) against a stand-in script that behaves as
 * bin/spritzer.mjs does on its console and its health endpoint, and the staging's refusals before any npm ci.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stageNodeSuite, startServer } from './test-clients-node.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function scratch(): string {
  const d = mkdtempSync(join(tmpdir(), 'test-clients-node-'));
  dirs.push(d);
  return d;
}

/** A stand-in for bin/spritzer.mjs: prints its argv to a file, starts a child in its group, serves health. */
function fakeServer(dir: string, behaviour: 'serve' | 'exit'): string {
  const bin = join(dir, 'fake-spritzer.mjs');
  writeFileSync(
    bin,
    `import http from 'node:http';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
writeFileSync(${JSON.stringify(join(dir, 'argv.json'))}, JSON.stringify(process.argv.slice(2)));
if (${JSON.stringify(behaviour)} === 'exit') { console.error('boom: cannot start'); process.exit(3); }
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
writeFileSync(${JSON.stringify(join(dir, 'child.pid'))}, String(child.pid));
const server = http.createServer((req, res) => res.writeHead(req.url === '/_spritzer/health' ? 200 : 404).end('{}'));
server.listen(0, '127.0.0.1', () => console.log('spritzer listening on http://127.0.0.1:' + server.address().port + ' (exec engine: x)'));
process.on('SIGTERM', () => process.exit(0));
`,
  );
  return bin;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('startServer', () => {
  it('resolves once the ready line printed and health answers; stop ends the server and its group', async () => {
    const dir = scratch();
    const server = await startServer({ bin: fakeServer(dir, 'serve'), engine: 'shell', env: process.env, timeoutMs: 20_000 });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.token).toMatch(/^spritzer-node-[0-9a-f]{16}$/);
    expect((await fetch(`${server.url}/_spritzer/health`)).status).toBe(200);
    const argv = JSON.parse(readFileSync(join(dir, 'argv.json'), 'utf8'));
    expect(argv).toEqual(['--addr', '127.0.0.1:0', '--token', server.token, '--exec', 'shell']);
    const child = Number(readFileSync(join(dir, 'child.pid'), 'utf8'));
    expect(alive(child)).toBe(true);
    await server.stop();
    await expect.poll(() => alive(child), { timeout: 5_000 }).toBe(false);
    await server.stop(); // twice is harmless
  });

  it('gives a container server --ephemeral and a namespace of its own', async () => {
    const dir = scratch();
    const server = await startServer({ bin: fakeServer(dir, 'serve'), engine: 'container', env: process.env, timeoutMs: 20_000 });
    await server.stop();
    const argv: string[] = JSON.parse(readFileSync(join(dir, 'argv.json'), 'utf8'));
    expect(argv.slice(-3)).toEqual(['--ephemeral', '--namespace', expect.stringMatching(/^spritzer-test-[0-9a-f]{8}$/)]);
  });

  it('rejects with the exit and the server\'s last lines when it exits before its ready line', async () => {
    const dir = scratch();
    await expect(startServer({ bin: fakeServer(dir, 'exit'), engine: 'shell', env: process.env, timeoutMs: 20_000 })).rejects.toThrow(
      /exited \(3\) before printing its ready line:\nboom: cannot start/,
    );
  });
});

describe('stageNodeSuite', () => {
  it('refuses a suite without its lock file, or with a name that is not plain, before installing anything', () => {
    const root = scratch();
    mkdirSync(join(root, 'suite'));
    writeFileSync(join(root, 'suite/package.json'), '{}');
    expect(stageNodeSuite(root, { id: 'x', dir: 'suite' })).toEqual({ error: 'suite/package-lock.json is missing' });
    expect(() => stageNodeSuite(root, { id: '../x', dir: 'suite' })).toThrow(/not a plain name/);
  });
});
