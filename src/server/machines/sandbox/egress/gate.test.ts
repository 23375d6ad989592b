/**
 * The egress gate without a sprite: its proxy and resolver are driven over in-memory Duplex pairs,
 * as the agent's relays would carry them, against a test double of the outside (names → TEST-NET addresses →
 * a loopback server). Policy semantics, REFUSED, raw and private addresses, and the cut on a policy change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import dnsPacket from 'dns-packet';
import { EgressGate, RCODE, splitHostPort } from './gate.ts';
import { MAX_RESOLVED_ADDRESSES } from './resolved-names.ts';
import { duplexPair } from '../../../core/duplex-pair.ts';
import { isAlwaysBlocked, type EgressNet } from './net.ts';
import type { NetworkPolicy } from '../../../core/network-policy.ts';

const pair = duplexPair;

let echo: net.Server;
const dialed: string[] = [];
const outside: EgressNet = {
  async resolve(name) {
    const table: Record<string, string[]> = { 'a.example.com': ['11.0.0.1'], 'b.example.com': ['11.0.0.2'], 'lan.example.com': ['192.168.1.9'] };
    if (!table[name]) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return table[name]!;
  },
  dial(address, port) {
    dialed.push(`${address}:${port}`);
    return new Promise((resolve, reject) => {
      const s = net.connect((echo.address() as net.AddressInfo).port, '127.0.0.1', () => resolve(s));
      s.once('error', reject);
    });
  },
};

beforeAll(async () => {
  echo = net.createServer((s) => s.pipe(s));
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
});
afterAll(() => echo.close());

const POLICY: NetworkPolicy = {
  rules: [
    { domain: '*.example.com', action: 'allow' },
    { domain: 'b.example.com', action: 'deny' },
    { domain: '*', action: 'deny' },
  ],
};

/** Sends one DNS question through the gate; resolves with the decoded answer. */
async function ask(gate: EgressGate, name: string, type: 'A' | 'AAAA' | 'TXT' = 'A') {
  const [inside, host] = pair();
  gate.serveDns(host);
  const chunks: Buffer[] = [];
  inside.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((r) => inside.on('end', r));
  inside.end(dnsPacket.encode({ type: 'query', id: 7, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type, name }] }));
  await done;
  return dnsPacket.decode(Buffer.concat(chunks));
}

/** Sends a CONNECT through the gate; resolves with the status line and the inside end of the connection. */
async function connect(gate: EgressGate, target: string): Promise<{ status: string; conn: Duplex }> {
  const [inside, host] = pair();
  gate.serveProxy(host);
  inside.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
  let text = '';
  await new Promise<void>((resolve) => {
    const on = (c: Buffer) => {
      text += c.toString('latin1');
      if (text.includes('\r\n\r\n')) {
        inside.off('data', on);
        resolve();
      }
    };
    inside.on('data', on);
    inside.on('end', () => resolve());
  });
  return { status: text.split('\r\n')[0]!, conn: inside };
}

describe('EgressGate', () => {
  it('DNS: a blocked name is REFUSED, an allowed one answered, an unknown one NXDOMAIN', async () => {
    const gate = new EgressGate({ net: outside });
    gate.setPolicy(POLICY);
    const refused = await ask(gate, 'b.example.com');
    expect([refused.id, refused.type, refused.flags! & 0xf, refused.answers]).toEqual([7, 'response', RCODE.REFUSED, []]);
    expect((await ask(gate, 'other.org')).flags! & 0xf).toBe(RCODE.REFUSED);
    const ok = await ask(gate, 'A.Example.com');
    expect(ok.flags! & 0xf).toBe(RCODE.NOERROR);
    expect(ok.answers?.map((a) => (a as { data: string }).data)).toEqual(['11.0.0.1']);
    expect((await ask(gate, 'a.example.com', 'AAAA')).answers).toEqual([]);
    expect((await ask(gate, 'nope.example.com')).flags! & 0xf).toBe(RCODE.NXDOMAIN);
  });

  it('CONNECT: exact deny beats *.x allow; raw IPs pass only once resolved from an allowed name', async () => {
    const gate = new EgressGate({ net: outside });
    gate.setPolicy(POLICY);
    expect((await connect(gate, 'b.example.com:443')).status).toBe('HTTP/1.1 403 Forbidden');
    expect((await connect(gate, '11.0.0.1:443')).status).toBe('HTTP/1.1 403 Forbidden'); // not resolved yet
    expect((await connect(gate, '127.0.0.1:22')).status).toBe('HTTP/1.1 403 Forbidden');
    expect((await connect(gate, 'lan.example.com:80')).status).toBe('HTTP/1.1 403 Forbidden'); // resolves to a private range
    expect(dialed).toEqual([]);
    const { status, conn } = await connect(gate, 'a.example.com:443');
    expect(status).toBe('HTTP/1.1 200 Connection Established');
    conn.write('ping');
    expect((await new Promise<Buffer>((r) => conn.once('data', r))).toString()).toBe('ping');
    conn.destroy();
    expect((await connect(gate, '11.0.0.1:443')).status).toBe('HTTP/1.1 200 Connection Established');
  });

  it('a policy change cuts open tunnels to newly blocked names and keeps the others', async () => {
    const gate = new EgressGate({ net: outside });
    gate.setPolicy({ rules: [{ domain: '*', action: 'allow' }] });
    const a = await connect(gate, 'a.example.com:443');
    const b = await connect(gate, 'b.example.com:443');
    expect([a.status, b.status]).toEqual(['HTTP/1.1 200 Connection Established', 'HTTP/1.1 200 Connection Established']);
    expect(gate.openConnections).toBe(2);
    const bClosed = new Promise((r) => b.conn.once('close', r));
    gate.setPolicy(POLICY);
    await bClosed;
    a.conn.write('still');
    expect((await new Promise<Buffer>((r) => a.conn.once('data', r))).toString()).toBe('still');
    expect(gate.openConnections).toBe(1);
    gate.close();
  });

  it('remembers only the most recently resolved addresses: an old one must be resolved again', async () => {
    // Every name `hN.flood.example.com` resolves to its own public address 11.N/256.N%256.1.
    const flood: EgressNet = {
      async resolve(name) {
        const n = Number(/^h(\d+)\./.exec(name)?.[1] ?? NaN);
        if (!Number.isInteger(n)) return outside.resolve(name);
        return [`11.${n >> 8}.${n & 255}.1`];
      },
      dial: outside.dial,
    };
    const gate = new EgressGate({ net: flood });
    gate.setPolicy({ rules: [{ domain: '*.example.com', action: 'allow' }, { domain: '*', action: 'deny' }] });
    for (let n = 0; n <= MAX_RESOLVED_ADDRESSES; n++) expect((await ask(gate, `h${n}.flood.example.com`)).flags! & 0xf).toBe(RCODE.NOERROR);
    expect((await connect(gate, '11.0.0.1:443')).status).toBe('HTTP/1.1 403 Forbidden'); // the first: forgotten
    const last = await connect(gate, `11.${MAX_RESOLVED_ADDRESSES >> 8}.${MAX_RESOLVED_ADDRESSES & 255}.1:443`);
    expect(last.status).toBe('HTTP/1.1 200 Connection Established');
    last.conn.destroy();
    await ask(gate, 'h0.flood.example.com'); // resolved again: allowed again
    const again = await connect(gate, '11.0.0.1:443');
    expect(again.status).toBe('HTTP/1.1 200 Connection Established');
    again.conn.destroy();
    gate.close();
  });

  it('isAlwaysBlocked and splitHostPort', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', 'nonsense']) {
      expect(isAlwaysBlocked(ip), ip).toBe(true);
    }
    for (const ip of ['11.0.0.1', '8.8.8.8', '2001:4860:4860::8888']) expect(isAlwaysBlocked(ip), ip).toBe(false);
    expect(splitHostPort('Example.COM.:443')).toEqual({ host: 'example.com', port: 443 });
    expect(splitHostPort('[::1]:80')).toEqual({ host: '::1', port: 80 });
    expect(splitHostPort('nohost')).toBeNull();
  });
});
