import { afterEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { startTestAgent, type TestAgent } from '../../test/support/agent.ts';

let agent: TestAgent | undefined;
let dir: string | undefined;
afterEach(async () => {
  await agent?.stop();
  agent = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Connects to `path`, sends `data`, half-closes, and resolves with everything received until the end (or a reset). */
function roundTrip(path: string, data: string): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(path);
    let got = '';
    s.on('data', (d) => (got += d.toString()));
    s.on('end', () => resolve(got));
    s.on('close', () => resolve(got));
    s.on('error', () => resolve(got));
    s.end(data);
  });
}

describe('the in-sprite API socket (ACCEPT relays)', () => {
  it('a connection inside reaches the host as a Duplex, both ways, with half-close', async () => {
    dir = await mkdtemp(join(tmpdir(), 'spritzer-api-'));
    const api = join(dir, 'api.sock');
    agent = await startTestAgent({ apiSocket: api });
    const accepted: Duplex[] = [];
    agent.client.onAccept = (conn) => {
      accepted.push(conn);
      let body = '';
      conn.on('data', (d: Buffer) => (body += d.toString()));
      conn.on('end', () => conn.end(`echo:${body}`));
    };
    expect((await stat(api)).mode & 0o777).toBe(0o666);
    expect(await roundTrip(api, 'hello')).toBe('echo:hello');
    expect(await roundTrip(api, 'again')).toBe('echo:again');
    expect(accepted).toHaveLength(2);
  });

  it('without an accept handler on the host the connection is reset, and nothing hangs', async () => {
    dir = await mkdtemp(join(tmpdir(), 'spritzer-api-'));
    const api = join(dir, 'api.sock');
    agent = await startTestAgent({ apiSocket: api });
    expect(await roundTrip(api, 'nobody')).toBe('');
  });
});
