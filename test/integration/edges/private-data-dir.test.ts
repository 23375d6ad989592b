/**
 * `--data-dir` is private to the host user running spritzer: the dir is 0711 (the sandbox engine's sprites, each an
 * unprivileged host user of its own, must reach their own dirs below it), every directory below it 0700 and every
 * file 0600, so another host user reads neither a service's secret environment (in the database and its WAL) nor a
 * sprite's files (the blobs). The memory engines here; the sandbox engine's disks in test/sandbox/private-data-dir.test.ts.
 * The "another host user" half needs root (to become `nobody`) and skips with the reason printed otherwise.
 */
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { SystemClock } from '../../../src/server/core/clock.ts';
import { RandomIds } from '../../../src/server/core/ids.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { openDataDir, type OpenedDataDir } from '../../../src/server/store/open-data-dir.ts';
import { api, startTestServer, TOKEN } from '../../support/server.ts';
import { entriesUnder, readableByNobody } from '../../support/unprivileged.ts';

const IS_ROOT = process.getuid?.() === 0;
if (!IS_ROOT) console.warn('private data dir tests as another host user skipped: not root');

// The data dir's parent is searchable by everyone, as /var/lib or a home directory often is.
const parent = mkdtempSync(join(tmpdir(), 'spritzer-private-'));
chmodSync(parent, 0o711);
let srv: RunningServer | undefined;
let opened: OpenedDataDir | undefined;
afterAll(async () => {
  await srv?.close().catch(() => undefined);
  opened?.store.close();
  await opened?.claim.release();
  rmSync(parent, { recursive: true, force: true });
});

const SECRET = `secret-${Math.random().toString(36).slice(2)}`;

describe('a data dir of the memory engines', () => {
  it('is 0711 with 0700 directories and 0600 files below, even when it existed world-readable', async () => {
    const dir = join(parent, 'data');
    mkdirSync(dir, { mode: 0o755 });
    const clock = new SystemClock();
    opened = await openDataDir(dir, { clock, logger: pino({ level: 'silent' }) });
    srv = await startTestServer('shell', { clock, store: opened.store, ids: new RandomIds(), token: TOKEN });
    const call = api(srv.url);
    expect((await call('POST', '/v1/sprites', { name: 'private' })).status).toBe(201);
    expect((await call('PUT', '/v1/sprites/private/services/web?duration=0', { cmd: 'sh', args: ['-c', 'sleep 1000'], env: { API_KEY: SECRET } })).status).toBe(200);
    expect((await call('PUT', '/v1/sprites/private/fs/write?path=/home/sprite/notes.txt', `${SECRET} in a file\n`)).status).toBe(200);
    opened.store.flush();
    const entries = entriesUnder(dir);
    expect(entries).toEqual(expect.arrayContaining([join(dir, 'spritzer.db'), join(dir, 'spritzer.db-wal'), join(dir, 'blobs')]));
    // Another host user knows the names (they are in the docs) but opens none of them.
    if (IS_ROOT) expect(readableByNobody(entries, SECRET)).toEqual({ readable: [], leaking: [] });
    const modes = Object.fromEntries(entries.map((p) => [p.slice(dir.length) || '/', (lstatSync(p).mode & 0o7777).toString(8)]));
    const want = Object.fromEntries(entries.map((p) => [p.slice(dir.length) || '/', p === dir ? '711' : lstatSync(p).isDirectory() ? '700' : '600']));
    expect(modes).toEqual(want);
  });
});
