/**
 * One suite for the agent-backed engines (sandbox, container): code in one sprite, as the default user with no
 * token, writes raw requests to its own `/.sprite/api.sock` (test/support/in-sprite-attacks.ts) aimed at another
 * sprite whose `auth: sprite` HTTP service answers a secret to any request; none may reach that service or that
 * sprite's API. The caller starts and stops the server. Test support only.
 */
import { beforeAll, expect, it } from 'vitest';
import { api, execQuery, wsExec } from './server.ts';
import { inSpriteAttacks, rawRequestOf, RAW_API_CLIENT_PY, VICTIM_SECRET, VICTIM_SERVER_PY } from './in-sprite-attacks.ts';
import { SPRITE_UID } from '../../src/protocol/sprite-tree.ts';

/** Declares the suite's tests (inside a `describe`) against the server whose URL `base()` gives once it started. */
export function inSpriteScopeSuite(base: () => string, names = { attacker: 'attacker', victim: 'victim' }): void {
  const call = (...a: Parameters<ReturnType<typeof api>>) => api(base())(...a);
  const run = (sprite: string, argv: string[]) => wsExec(base(), `/v1/sprites/${sprite}/exec?${execQuery(argv)}`);
  const { attacker, victim } = names;

  beforeAll(async () => {
    for (const name of [attacker, victim]) expect((await call('POST', '/v1/sprites', { name })).status).toBe(201);
    expect((await call('PUT', `/v1/sprites/${victim}/fs/write?path=/home/sprite/victim.py`, VICTIM_SERVER_PY)).status).toBe(200);
    expect((await call('PUT', `/v1/sprites/${victim}/services/keep`, { cmd: 'python3', args: ['/home/sprite/victim.py'], http_port: 8080 })).status).toBeLessThan(300);
    // The victim's service answers the secret inside its own sprite: an attack that reached it would see it.
    const probe = `import time, urllib.request
for _ in range(100):
    try:
        print(urllib.request.urlopen('http://127.0.0.1:8080/').read().decode()); break
    except OSError:
        time.sleep(0.1)`;
    expect((await run(victim, ['python3', '-c', probe])).stdout.trim()).toBe(VICTIM_SECRET);
  }, 120_000);

  it('the default user still reaches its own sprite’s API through the raw socket', async () => {
    const r = await run(attacker, ['python3', '-c', RAW_API_CLIENT_PY, 'GET /v1/services HTTP/1.1\r\nHost: sprite\r\nConnection: close\r\n\r\n']);
    expect(r.stdout).toMatch(/^HTTP\/1\.1 200 /);
    expect(r.stdout.trimEnd().endsWith('[]')).toBe(true);
    expect((await run(attacker, ['id', '-u'])).stdout.trim()).toBe(String(SPRITE_UID));
  });

  it.each(inSpriteAttacks(victim).map((a) => [a.label, a] as const))('%s: reaches neither the other sprite’s URL nor its API', async (_label, attack) => {
    const before = (await call('GET', `/v1/sprites/${victim}/checkpoints`)).json.length;
    const r = await run(attacker, ['python3', '-c', RAW_API_CLIENT_PY, rawRequestOf(attack)]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain(VICTIM_SECRET);
    expect(r.stdout).not.toContain('"keep"');
    const services = (await call('GET', `/v1/sprites/${victim}/services`)).json.map((s: { name: string }) => s.name);
    expect(services).toEqual(['keep']);
    expect((await call('GET', `/v1/sprites/${victim}/checkpoints`)).json.length).toBe(before);
  });
}
