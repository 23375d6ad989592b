/**
 * The egress gate on the sandbox engine (docs/sandbox.md "Egress"). With `--sandbox-egress gate` a sprite reaches the
 * outside only through the loopback proxy and resolver its agent serves, and spritzer applies the sprite's network
 * policy: curl and Python's urllib reach an allowed name and get 403 for a denied one, DNS answers REFUSED for a denied
 * name, raw and private addresses are refused, a policy change cuts an open CONNECT tunnel. With `none` nothing leaves
 * the sprite. No internet: a test double of the outside maps `*.test` names to loopback test servers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import net, { type Server } from 'node:net';
import type { Duplex } from 'node:stream';
import { api, startTestServer, TOKEN } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { SandboxMachineFactory, type SandboxMachine } from '../../src/server/machines/sandbox/sandbox-machine.ts';
import type { EgressNet } from '../../src/server/machines/sandbox/egress/net.ts';
import { announceSkip, exec } from './support.ts';

const skip = announceSkip('sandbox egress');

/** The outside: names → public unicast addresses of 11.0.0.0/8 (never dialled: this net maps them to loopback servers, port 80 → HTTP, 7 → echo). */
const NAMES: Record<string, string[]> = {
  'allowed.test': ['11.0.0.10'],
  'denied.test': ['11.0.0.11'],
  'private.test': ['10.0.0.5'],
};
const dialed: string[] = [];
let httpServer: http.Server;
let echoServer: Server;

function outside(): EgressNet {
  return {
    async resolve(name) {
      const found = NAMES[name];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
      return found;
    },
    dial(address, port) {
      dialed.push(`${address}:${port}`);
      if (!address.startsWith('11.0.0.')) return Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
      const target = port === 7 ? (echoServer.address() as net.AddressInfo).port : (httpServer.address() as net.AddressInfo).port;
      return new Promise<Duplex>((resolve, reject) => {
        const s = net.connect(target, '127.0.0.1', () => resolve(s));
        s.once('error', reject);
      });
    },
  };
}

let srv: RunningServer;
let call: ReturnType<typeof api>;

const POLICY = {
  rules: [
    { domain: 'allowed.test', action: 'allow' },
    { domain: 'private.test', action: 'allow' },
    { domain: '*.test', action: 'deny' },
    { include: 'defaults' },
  ],
};

beforeAll(async () => {
  if (skip) return;
  httpServer = http.createServer((req, res) => res.end(`hello from ${req.headers.host} ${req.url}\n`));
  echoServer = net.createServer((s) => s.pipe(s));
  await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => echoServer.listen(0, '127.0.0.1', r));
  srv = await startTestServer('sandbox', { token: TOKEN }, { egress: { mode: 'gate', net: outside() } });
  call = api(srv.url);
  expect((await call('POST', '/v1/sprites', { name: 'eg1' })).status).toBe(201);
  expect((await call('POST', '/v1/sprites/eg1/policy/network', POLICY)).status).toBe(204);
}, 90_000);

afterAll(async () => {
  await srv?.close(); // closes the gated factory too
  httpServer?.close();
  echoServer?.close();
});

const machineOf = (name: string) => srv.spritzer.ctx.model.get(name).machine as SandboxMachine;
/** Runs `bash -c script` in sprite eg1 as the sprite user, with the environment a real exec gets (PATH, HOME). */
const run = (script: string) => exec(machineOf('eg1'), script);

/** A raw DNS query for `name` (type A) from inside: prints `<rcode> <answer count>`. */
const dnsProbe = (name: string) => `python3 - <<'EOF'
import socket, struct
q = struct.pack('>HHHHHH', 0x1234, 0x0100, 1, 0, 0, 0) + b''.join(bytes([len(l)]) + l.encode() for l in '${name}'.split('.')) + b'\\x00' + struct.pack('>HH', 1, 1)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.settimeout(5)
s.sendto(q, ('127.0.0.1', 53)); r = s.recv(4096)
print(r[3] & 15, struct.unpack('>H', r[6:8])[0])
EOF`;

describe.skipIf(skip)('sandbox egress gate: a sprite reaches only what its network policy allows', () => {
  it('advertises the proxy in the environment and the resolver in /etc/resolv.conf', async () => {
    const r = await run('echo "$http_proxy $HTTPS_PROXY $no_proxy"; cat /etc/resolv.conf; stat -c %u /etc/resolv.conf');
    expect(r.out).toContain('http://127.0.0.1:3128 http://127.0.0.1:3128 localhost,127.0.0.1,::1');
    expect(r.out).toMatch(/^nameserver 127\.0\.0\.1$/m);
    expect(r.out.trim().split('\n').at(-1)).toBe('0');
  });

  it('curl through the proxy reaches an allowed name; a denied one gets 403', async () => {
    const ok = await run('curl -sS http://allowed.test/hi');
    expect([ok.out, ok.code]).toEqual(['hello from allowed.test /hi\n', 0]);
    const denied = await run("curl -s -o /dev/null -w '%{http_code}' http://denied.test/; echo; curl -s http://other.test/ | head -c 200");
    expect(denied.out).toMatch(/^403\n/);
    expect(denied.out).toContain('blocked by the network policy');
    expect(dialed.some((d) => d.startsWith('11.0.0.11'))).toBe(false);
  });

  it("Python's urllib through the proxy: allowed answers, denied raises HTTPError 403", async () => {
    const r = await run(`python3 - <<'EOF'
import urllib.request, urllib.error
print(urllib.request.urlopen('http://allowed.test/py', timeout=10).read().decode(), end='')
try:
    urllib.request.urlopen('http://denied.test/', timeout=10)
except urllib.error.HTTPError as e:
    print('denied', e.code)
EOF`);
    expect(r.err).toBe('');
    expect(r.out).toBe('hello from allowed.test /py\ndenied 403\n');
  });

  it('the resolver answers an allowed name and REFUSED for a denied one', async () => {
    expect((await run(dnsProbe('denied.test'))).out).toBe('5 0\n');
    expect((await run(dnsProbe('allowed.test'))).out).toBe('0 1\n');
    const r = await run("getent hosts allowed.test; getent hosts denied.test || echo 'no denied'");
    expect(r.out).toMatch(/^11\.0\.0\.10 +allowed\.test\nno denied\n$/); // getent pads the address to its column
  });

  it('raw addresses: loopback and private ranges are refused, a public one only once resolved from an allowed name', async () => {
    const port = (httpServer.address() as net.AddressInfo).port;
    const code = (url: string) => run(`curl -s --noproxy '' -x http://127.0.0.1:3128 -o /dev/null -w '%{http_code}' ${url}`);
    expect((await code(`http://127.0.0.1:${port}/`)).out).toBe('403');
    expect((await code('http://10.0.0.5/')).out).toBe('403');
    expect((await code('http://private.test/')).out).toBe('403');
    expect((await code('http://11.0.0.11/')).out).toBe('403');
    expect((await code('http://11.0.0.10/')).out).toBe('200'); // allowed.test resolved to it earlier
    expect(dialed.filter((d) => !d.startsWith('11.0.0.'))).toEqual([]);
  });

  it('a policy change cuts an open CONNECT tunnel to a newly blocked name', async () => {
    const machine = machineOf('eg1');
    let out = '';
    let sawPing!: () => void;
    const pinged = new Promise<void>((r) => (sawPing = r));
    const p = machine.spawn(
      {
        argv: ['python3', '-c', `
import socket
s = socket.create_connection(('127.0.0.1', 3128))
s.sendall(b'CONNECT allowed.test:7 HTTP/1.1\\r\\nHost: allowed.test:7\\r\\n\\r\\n')
buf = b''
while b'\\r\\n\\r\\n' not in buf: buf += s.recv(1)
print(buf.split(b'\\r\\n')[0].decode(), flush=True)
s.sendall(b'ping'); print(s.recv(100).decode(), flush=True)
try:
    print('closed' if s.recv(100) == b'' else 'data', flush=True)
except OSError as e:
    print('closed', type(e).__name__, flush=True)
`],
        env: { PATH: '/usr/bin:/bin' },
        dir: '/',
        tty: false,
        rows: 24,
        cols: 80,
      },
      {
        stdout: (d) => {
          out += Buffer.from(d).toString('utf8');
          if (out.includes('ping')) sawPing();
        },
        stderr: (d) => (out += Buffer.from(d).toString('utf8')),
      },
      { stdin: false },
    );
    await pinged;
    expect(out).toMatch(/^HTTP\/1\.1 200 Connection Established\nping\n/);
    const blocked = { rules: [{ domain: 'allowed.test', action: 'deny' }, { domain: '*', action: 'allow' }] };
    expect((await call('POST', '/v1/sprites/eg1/policy/network', blocked)).status).toBe(204);
    expect(await p.exit).toBe(0);
    expect(out).toMatch(/\nclosed/);
    // The new policy is in force for new connections too.
    expect((await run("curl -s -o /dev/null -w '%{http_code}' http://allowed.test/")).out).toBe('403');
    expect((await call('POST', '/v1/sprites/eg1/policy/network', POLICY)).status).toBe(204);
  });

  it('the proxy port is not reported as a port of the sprite', async () => {
    const ports = await machineOf('eg1').listeningPorts();
    expect(ports.map((p) => p.port)).not.toContain(3128);
  });
});

describe.skipIf(skip)('sandbox egress none (the default)', () => {
  it('a sprite has loopback only: no proxy, no resolver, nothing outbound', async () => {
    const factory = await SandboxMachineFactory.open({});
    try {
      const m = await factory.create({ name: 'noegress', id: 'noegress-1' });
      const before = dialed.length;
      const r = await exec(
        m,
        "grep -c : /proc/net/dev; grep -o '^ *[a-z0-9]*:' /proc/net/dev | tr -d ' '; echo \"proxy=${http_proxy:-none}\"; " +
          "curl -sS -m 5 -x http://127.0.0.1:3128 http://allowed.test/ >/dev/null 2>&1 || echo 'proxy: no'; " +
          "curl -sS -m 5 http://11.0.0.10/ >/dev/null 2>&1 || echo 'direct: no'; " +
          "getent hosts allowed.test || echo 'dns: no'",
      );
      expect(r.out).toBe('1\nlo:\nproxy=none\nproxy: no\ndirect: no\ndns: no\n');
      expect(dialed.length).toBe(before);
    } finally {
      await factory.close();
    }
  }, 60_000);
});
