/**
 * The in-sprite API reaches only its own sprite (docs/security.md "The in-sprite API"), on the in-memory engine: a
 * sprite's code runs `sprite-env curl` with every Host, forwarding-header, traversal and method trick of
 * test/support/in-sprite-attacks.ts against another sprite, whose HTTP service (a loopback server behind the
 * engine's `connect`) answers a secret to anything. Nothing may reach that service or the other sprite's API.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, execQuery, memoryMachines, startTestServer, TOKEN, wsExec } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { createEngine } from '../../../src/server/machines/memory/engines.ts';
import { SystemClock } from '../../../src/server/core/clock.ts';
import { inSpriteAttacks, spriteEnvArgvOf, VICTIM_SECRET } from '../../support/in-sprite-attacks.ts';

describe('the in-sprite API is pinned to its own sprite (shell engine, sprite-env curl)', () => {
  let srv: RunningServer;
  let upstream: http.Server;
  const hits: string[] = [];
  const call = () => api(srv.url);
  const inside = (argv: string[]) => wsExec(srv.url, `/v1/sprites/attacker/exec?${execQuery(argv)}`);

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      hits.push(`${req.method} ${req.headers.host} ${req.url}`);
      res.end(VICTIM_SECRET);
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const upstreamPort = (upstream.address() as net.AddressInfo).port;
    const clock = new SystemClock();
    const engine = {
      ...createEngine('shell', { clock }),
      // Every sprite's port 8080 is the victim's server: an attack that reaches any sprite URL shows up in `hits`.
      connect: (_sprite: unknown, _host: string, p: number) =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(p === 8080 ? upstreamPort : 1, '127.0.0.1');
          socket.once('connect', () => resolve(socket));
          socket.once('error', reject);
        }),
    };
    srv = await startTestServer('shell', { token: TOKEN, machines: memoryMachines(engine, clock) });
    for (const name of ['attacker', 'victim']) expect((await call()('POST', '/v1/sprites', { name })).status).toBe(201);
    expect((await call()('PUT', '/v1/sprites/victim/services/keep', { cmd: 'sleep', args: ['3600'], http_port: 8080 })).status).toBeLessThan(300);
    // The victim's URL does answer the secret to its owner: the attacks below could see it if they got through.
    const owner = await fetch(`${srv.url}/s/victim/`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(await owner.text()).toBe(VICTIM_SECRET);
    hits.length = 0;
  });
  afterAll(async () => {
    await srv?.close();
    upstream?.closeAllConnections();
    await new Promise((r) => upstream?.close(r));
  });

  it('still answers the sprite’s own API, and a Host naming another sprite changes nothing', async () => {
    const own = await inside(['sprite-env', 'curl', '-H', 'Host: victim.localhost', '/v1/services']);
    expect([own.exitCode, JSON.parse(own.stdout)]).toEqual([0, []]);
    const listed = await inside(['sprite-env', 'services', 'list']);
    expect([listed.exitCode, JSON.parse(listed.stdout)]).toEqual([0, []]);
  });

  it.each(inSpriteAttacks('victim').map((a) => [a.label, a] as const))('%s: reaches neither the other sprite’s URL nor its API', async (_label, attack) => {
    const before = (await call()('GET', '/v1/sprites/victim/checkpoints')).json.length;
    const hitsBefore = hits.length;
    const r = await inside(spriteEnvArgvOf(attack));
    const seen = r.stdout + r.stderr;
    expect(seen).not.toContain(VICTIM_SECRET);
    expect(seen).not.toContain('"keep"');
    expect(hits.slice(hitsBefore)).toEqual([]);
    const services = (await call()('GET', '/v1/sprites/victim/services')).json.map((s: { name: string }) => s.name);
    expect(services).toEqual(['keep']);
    expect((await call()('GET', '/v1/sprites/victim/checkpoints')).json.length).toBe(before);
  });
});
