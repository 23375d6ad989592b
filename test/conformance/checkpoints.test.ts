// Checkpoints (docs/wire-reference.md §7): create (NDJSON ending in `complete`, id only in the text), list headed
// by `Current` (automatic checkpoints only with `includeAuto=true`), get, restore rewinding the filesystem (after an
// automatic checkpoint of what it replaces, emulator only), delete. Every NDJSON line is validated by the client.
import { beforeAll, describe, expect } from 'vitest';
import { useConformance, verified, emulatorOnly, runExec } from './support/index.ts';

const { target, call, sprites } = useConformance();
let box: string;
beforeAll(async () => {
  box = (await sprites.create()).name;
});

const write = (path: string, text: string) => call('PUT', `/v1/sprites/${box}/fs/write`, { query: { path, mkdirParents: true }, body: text });
const read = (path: string) => call('GET', `/v1/sprites/${box}/fs/read`, { query: { path } });

/** Creates a checkpoint and returns its id, parsed from the `complete` line as clients do. */
async function checkpoint(comment?: string): Promise<string> {
  const res = await call('POST', `/v1/sprites/${box}/checkpoint`, { body: comment === undefined ? {} : { comment } });
  expect(res.status).toBe(200);
  expect(res.contentType).toContain('application/x-ndjson');
  const last = res.lines!.at(-1);
  expect(last.type).toBe('complete');
  const id = /Checkpoint (\S+) created/.exec(last.data)?.[1];
  expect(id, last.data).toBeTruthy();
  return id!;
}

describe('createCheckpoint', () => {
  verified.it('streams progress lines ending in complete "Checkpoint vN created successfully"', async () => {
    const res = await call('POST', `/v1/sprites/${box}/checkpoint`, { body: { comment: 'first' } });
    expect(res.status).toBe(200);
    expect(res.lines!.length).toBeGreaterThan(0);
    expect(res.lines!.at(-1)).toMatchObject({ type: 'complete' });
    expect(res.lines!.at(-1).data).toMatch(/^Checkpoint v\d+ created successfully$/);
    expect(res.lines!.filter((l) => l.type === 'complete')).toHaveLength(1);
  });

  verified.it('gives each checkpoint a new id', async () => {
    const a = await checkpoint();
    const b = await checkpoint();
    expect(a).not.toBe(b);
  });

  verified.it('answers 404 for a missing sprite before any line', async () => {
    const res = await call('POST', `/v1/sprites/${sprites.name('missing')}/checkpoint`, { body: {} });
    expect(res.status).toBe(404);
  });
});

describe('listCheckpoints', () => {
  verified.it('is a JSON array headed by the Current entry, then the checkpoints', async () => {
    const id = await checkpoint('listed');
    const res = await call('GET', `/v1/sprites/${box}/checkpoints`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.json)).toBe(true);
    expect(res.json[0].id).toBe('Current');
    expect(Number.isNaN(Date.parse(res.json[0].create_time))).toBe(false);
    const mine = res.json.find((c: { id: string }) => c.id === id);
    expect(mine).toMatchObject({ id, comment: 'listed' });
  });

  emulatorOnly.it('answers text/plain lines with ?history=', async () => {
    const id = await checkpoint();
    const res = await call('GET', `/v1/sprites/${box}/checkpoints`, { query: { history: id } });
    expect(res.status).toBe(200);
    expect(res.contentType).toContain('text/plain');
  });
});

describe('getCheckpoint', () => {
  verified.it('returns one checkpoint, and 404 for an unknown id', async () => {
    const id = await checkpoint('got');
    const res = await call('GET', `/v1/sprites/${box}/checkpoints/${id}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id, comment: 'got' });
    expect((await call('GET', `/v1/sprites/${box}/checkpoints/v99999`)).status).toBe(404);
  });
});

describe('restoreCheckpoint', () => {
  verified.it('rewinds the filesystem: changed files come back, new files go away', async () => {
    await write('/home/sprite/state.txt', 'before');
    const id = await checkpoint('before change');
    await write('/home/sprite/state.txt', 'after');
    await write('/home/sprite/new.txt', 'new');
    const exec = await runExec(target(), box, ['sh', '-c', 'echo exec-after > /home/sprite/exec.txt']);
    expect(exec.exitCode).toBe(0);

    const res = await call('POST', `/v1/sprites/${box}/checkpoints/${id}/restore`);
    expect(res.status).toBe(200);
    expect(res.lines!.at(-1).type).toBe('complete');

    expect((await read('/home/sprite/state.txt')).text).toBe('before');
    expect((await read('/home/sprite/new.txt')).status).toBe(404);
    expect((await read('/home/sprite/exec.txt')).status).toBe(404);
    const seen = await runExec(target(), box, ['cat', '/home/sprite/state.txt']);
    expect(seen.stdout).toBe('before');
  });

  verified.it('answers 404 for an unknown checkpoint', async () => {
    expect((await call('POST', `/v1/sprites/${box}/checkpoints/v99999/restore`)).status).toBe(404);
  });

  emulatorOnly.it('first takes an automatic checkpoint of the state it replaces, which restores that state', async () => {
    await write('/home/sprite/undo.txt', 'kept');
    const id = await checkpoint('undo base');
    await write('/home/sprite/undo.txt', 'replaced');
    expect((await call('POST', `/v1/sprites/${box}/checkpoints/${id}/restore`)).lines!.at(-1).type).toBe('complete');
    const autos = (await call('GET', `/v1/sprites/${box}/checkpoints`, { query: { includeAuto: true } })).json.filter((c: { is_auto?: boolean }) => c.is_auto);
    expect(autos[0]).toMatchObject({ id: expect.stringMatching(/^auto-\d{13}$/), comment: `pre-restore of ${id}`, is_auto: true });
    expect((await call('POST', `/v1/sprites/${box}/checkpoints/${autos[0].id}/restore`)).lines!.at(-1).type).toBe('complete');
    expect((await read('/home/sprite/undo.txt')).text).toBe('replaced');
  });
});

describe('deleteCheckpoint', () => {
  emulatorOnly.it('answers 409 for the checkpoint the sprite is on, 204 for an older one, 404 for an unknown id', async () => {
    const older = await checkpoint('doomed');
    const active = await checkpoint('active');
    const refused = await call('DELETE', `/v1/sprites/${box}/checkpoints/${active}`);
    expect(refused.status).toBe(409);
    const del = await call('DELETE', `/v1/sprites/${box}/checkpoints/${older}`);
    expect(del.status).toBe(204);
    expect((await call('GET', `/v1/sprites/${box}/checkpoints/${older}`)).status).toBe(404);
    expect((await call('DELETE', `/v1/sprites/${box}/checkpoints/v99999`)).status).toBe(404);
  });
});
