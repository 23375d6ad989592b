// Filesystem (docs/wire-reference.md §8): write, read, list (and stat through a list of a file path), delete, rename,
// copy, chmod, chown, workingDir resolution and the `{error, code, path}` error envelope with its codes.
import { beforeAll, describe, expect } from 'vitest';
import { useConformance, verified, emulatorOnly } from './support/index.ts';

const { call, sprites } = useConformance();
let box: string;
let n = 0;
/** A fresh directory per test under /home/sprite. */
const dir = () => `/home/sprite/conf-${++n}`;
beforeAll(async () => {
  box = (await sprites.create()).name;
});

const fs = (method: string, op: string, opts: Parameters<typeof call>[2] = {}) => call(method, `/v1/sprites/${box}/fs/${op}`, opts);
const write = (path: string, body: string | Uint8Array, query: Record<string, string | boolean> = {}) =>
  fs('PUT', 'write', { query: { path, mkdirParents: true, ...query }, body });
const read = (path: string, workingDir?: string) => fs('GET', 'read', { query: { path, workingDir } });
const list = (path: string, workingDir?: string) => fs('GET', 'list', { query: { path, workingDir } });

describe('writeFile', () => {
  verified.it('writes bytes (creating parents) and answers {path, size, mode}', async () => {
    const d = dir();
    const res = await write(`${d}/a/b.txt`, 'hello', { mode: '0640' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ path: `${d}/a/b.txt`, size: 5, mode: '0640' });
  });

  verified.it('answers ENOENT when the parent is missing and mkdirParents=false', async () => {
    const d = dir();
    const res = await write(`${d}/missing/x.txt`, 'x', { mkdirParents: false });
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('ENOENT');
  });
});

describe('readFile', () => {
  verified.it('returns the exact bytes written, binary included', async () => {
    const d = dir();
    const bytes = new Uint8Array([0, 1, 2, 250, 255, 10]);
    await write(`${d}/bin`, bytes);
    const res = await read(`${d}/bin`);
    expect(res.status).toBe(200);
    expect(Array.from(res.bytes)).toEqual(Array.from(bytes));
  });

  verified.it('resolves a relative path against workingDir', async () => {
    const d = dir();
    await write(`${d}/rel.txt`, 'relative');
    expect((await read('rel.txt', d)).text).toBe('relative');
  });

  verified.it('answers 404 ENOENT with the path for a missing file, and EISDIR for a directory', async () => {
    const d = dir();
    const missing = await read(`${d}/nope.txt`);
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ code: 'ENOENT', path: `${d}/nope.txt` });
    await write(`${d}/f`, 'x');
    const isDir = await read(d);
    expect(isDir.status).toBeGreaterThanOrEqual(400);
    expect(isDir.json.code).toBe('EISDIR');
  });
});

describe('listFiles', () => {
  verified.it('lists a directory’s children with camelCase fields and octal modes', async () => {
    const d = dir();
    await write(`${d}/one.txt`, '1');
    await write(`${d}/sub/two.txt`, '22');
    const res = await list(d);
    expect(res.status).toBe(200);
    expect(res.json.path).toBe(d);
    expect(res.json.count).toBe(2);
    const byName = Object.fromEntries(res.json.entries.map((e: { name: string }) => [e.name, e]));
    expect(byName['one.txt']).toMatchObject({ path: `${d}/one.txt`, type: 'file', isDir: false, size: 1 });
    expect(byName['sub']).toMatchObject({ type: 'directory', isDir: true });
    expect(byName['one.txt'].mode).toMatch(/^0[0-7]{3}$/);
    expect(Number.isNaN(Date.parse(byName['one.txt'].modTime))).toBe(false);
  });

  verified.it('stats a file: a list of a file path is one entry describing that file', async () => {
    const d = dir();
    await write(`${d}/stat-me.txt`, 'twelve bytes', { mode: '0600' });
    const res = await list(`${d}/stat-me.txt`);
    expect(res.status).toBe(200);
    expect(res.json.entries).toHaveLength(1);
    expect(res.json.entries[0]).toMatchObject({ name: 'stat-me.txt', path: `${d}/stat-me.txt`, size: 12, mode: '0600', isDir: false, type: 'file' });
  });

  verified.it('answers 404 ENOENT for a missing path', async () => {
    const res = await list(`${dir()}/nothing`);
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('ENOENT');
  });
});

describe('deleteFile', () => {
  verified.it('deletes a file and answers {deleted: [...], count}', async () => {
    const d = dir();
    await write(`${d}/gone.txt`, 'x');
    const res = await fs('DELETE', 'delete', { query: { path: `${d}/gone.txt` } });
    expect(res.status).toBe(200);
    expect(res.json.deleted).toContain(`${d}/gone.txt`);
    expect((await read(`${d}/gone.txt`)).status).toBe(404);
  });

  verified.it('refuses a non-empty directory without recursive (ENOTEMPTY), deletes it with recursive', async () => {
    const d = dir();
    await write(`${d}/keep/x.txt`, 'x');
    const refused = await fs('DELETE', 'delete', { query: { path: `${d}/keep`, recursive: false } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.json.code).toBe('ENOTEMPTY');
    const ok = await fs('DELETE', 'delete', { query: { path: `${d}/keep`, recursive: true } });
    expect(ok.status).toBe(200);
    expect(ok.json.deleted[0]).toBe(`${d}/keep`);
    expect((await list(`${d}/keep`)).status).toBe(404);
  });

  verified.it('answers 404 ENOENT for a missing path', async () => {
    const res = await fs('DELETE', 'delete', { query: { path: `${dir()}/never` } });
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('ENOENT');
  });
});

describe('renameFile', () => {
  verified.it('moves a file, replacing an existing destination', async () => {
    const d = dir();
    await write(`${d}/src.txt`, 'source');
    await write(`${d}/dst.txt`, 'old');
    const res = await fs('POST', 'rename', { body: { source: 'src.txt', dest: 'dst.txt', workingDir: d } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ source: `${d}/src.txt`, dest: `${d}/dst.txt` });
    expect((await read(`${d}/dst.txt`)).text).toBe('source');
    expect((await read(`${d}/src.txt`)).status).toBe(404);
  });

  verified.it('answers 404 ENOENT for a missing source', async () => {
    const d = dir();
    const res = await fs('POST', 'rename', { body: { source: `${d}/none`, dest: `${d}/other`, workingDir: '/' } });
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('ENOENT');
  });
});

describe('copyFile', () => {
  verified.it('copies a directory tree with recursive and reports what was copied', async () => {
    const d = dir();
    await write(`${d}/tree/a.txt`, 'aaa');
    await write(`${d}/tree/b/c.txt`, 'cc');
    const res = await fs('POST', 'copy', { body: { source: `${d}/tree`, dest: `${d}/copy`, workingDir: '/', recursive: true } });
    expect(res.status).toBe(200);
    expect(res.json.copied.length).toBeGreaterThan(0);
    expect((await read(`${d}/copy/b/c.txt`)).text).toBe('cc');
    expect((await read(`${d}/tree/a.txt`)).text).toBe('aaa');
  });

  emulatorOnly.it('counts the files and their bytes (docs/GO shape)', async () => {
    const d = dir();
    await write(`${d}/one.txt`, '12345');
    const res = await fs('POST', 'copy', { body: { source: `${d}/one.txt`, dest: `${d}/two.txt`, workingDir: '/' } });
    expect(res.json).toEqual({ copied: [{ source: `${d}/one.txt`, dest: `${d}/two.txt` }], count: 1, totalBytes: 5 });
  });

  emulatorOnly.it('answers EISDIR for a directory without recursive', async () => {
    const d = dir();
    await write(`${d}/t/a.txt`, 'a');
    const res = await fs('POST', 'copy', { body: { source: `${d}/t`, dest: `${d}/t2`, workingDir: '/', recursive: false } });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('EISDIR');
  });
});

describe('chmodFile', () => {
  verified.it('changes the mode, which a later stat shows', async () => {
    const d = dir();
    await write(`${d}/run.sh`, 'echo hi');
    const res = await fs('POST', 'chmod', { body: { path: `${d}/run.sh`, workingDir: '/', mode: '0755' } });
    expect(res.status).toBe(200);
    const stat = await list(`${d}/run.sh`);
    expect(stat.json.entries[0].mode).toBe('0755');
  });

  emulatorOnly.it('answers EINVAL for a mode that is not octal', async () => {
    const d = dir();
    await write(`${d}/f`, 'x');
    const res = await fs('POST', 'chmod', { body: { path: `${d}/f`, workingDir: '/', mode: '0999' } });
    expect(res.status).toBe(400);
  });
});

describe('chownFile', () => {
  verified.it('changes the owner and answers {affected: [{path, uid, gid}], count}', async () => {
    const d = dir();
    await write(`${d}/owned.txt`, 'x');
    const res = await fs('POST', 'chown', { body: { path: `${d}/owned.txt`, workingDir: '/', uid: 1001, gid: 1001 } });
    expect(res.status).toBe(200);
    expect(res.json.affected[0]).toMatchObject({ path: `${d}/owned.txt`, uid: 1001, gid: 1001 });
    expect(res.json.count).toBe(1);
  });
});
