// The proxy socket (docs/wire-reference.md §6.1): the first client frame names the target; a target nobody listens
// on closes 1011 "Failed to connect to target: …"; an init that is not JSON closes 1003. Handshake errors are
// plain HTTP statuses.
import { beforeAll, describe, expect } from 'vitest';
import { useConformance, verified, connectWs } from './support/index.ts';

const { target, sprites } = useConformance();
let box: string;
beforeAll(async () => {
  box = (await sprites.create()).name;
});

const open = () => connectWs(target(), `/v1/sprites/${box}/proxy`, { output: 'proxyConnectOutput' });

describe('proxyConnect', () => {
  verified.it('closes 1011 "Failed to connect to target" when nothing listens on the port', async () => {
    const conn = await open();
    conn.sendText({ host: 'localhost', port: 1 });
    const { code, reason } = await conn.closed;
    expect(code).toBe(1011);
    expect(reason).toMatch(/^Failed to connect to target/);
    expect(conn.frames.filter((f) => f.message === 'proxyResponse')).toHaveLength(0);
    expect(conn.violation).toBeUndefined();
  });

  verified.it('closes 1003 when the init message is not JSON', async () => {
    const conn = await open();
    conn.sendText('hello, not json');
    const { code } = await conn.closed;
    expect(code).toBe(1003);
  });

  verified.it('fails the handshake with 404 for a missing sprite and 401 without a token', async () => {
    await expect(connectWs(target(), `/v1/sprites/${sprites.name('missing')}/proxy`, { output: 'proxyConnectOutput' })).rejects.toMatchObject({ status: 404 });
    await expect(connectWs(target(), `/v1/sprites/${box}/proxy`, { output: 'proxyConnectOutput', authorization: null })).rejects.toMatchObject({ status: 401 });
  });
});
