// scripts/sweep-remote.ts against the emulator: it deletes every `spritzer-conf-*` sprite (across pages) and
// nothing else; `--dry-run` only lists. emulatorOnly: against a real account it would also delete the sprites
// of other runs in progress.
import { describe, expect } from 'vitest';
import { useConformance, emulatorOnly } from './support/index.ts';
import { sweep } from '../../scripts/sweep-remote.ts';

const { target, call, sprites } = useConformance();

describe('sweep-remote script', () => {
  emulatorOnly.it('deletes the leftover conformance sprites and keeps the others', async () => {
    const leftovers = [sprites.name('left'), sprites.name('over')];
    for (const name of leftovers) await sprites.create(name);
    const other = `keep-${Date.now().toString(36)}`;
    expect((await call('POST', '/v1/sprites', { body: { name: other } })).status).toBe(201);
    const t = target();
    const dry = await sweep(t.baseUrl, t.token, { dryRun: true });
    expect(dry.found).toEqual(expect.arrayContaining(leftovers));
    expect(dry.deleted).toEqual([]);
    expect((await call('GET', `/v1/sprites/${leftovers[0]}`)).status).toBe(200);
    const report = await sweep(t.baseUrl, t.token);
    expect(report.failed).toEqual([]);
    expect(report.deleted).toEqual(expect.arrayContaining(leftovers));
    for (const name of leftovers) expect((await call('GET', `/v1/sprites/${name}`)).status).toBe(404);
    expect((await call('GET', `/v1/sprites/${other}`)).status).toBe(200);
    await call('DELETE', `/v1/sprites/${other}`);
  });
});
