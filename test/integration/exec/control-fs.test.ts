/**
 * The sprites-go `fs.*` ops over the control socket (docs/wire-reference.md §5.3, sprites-go
 * `filesystem_control.go`), through a raw client: bare JSON `op.start` with URL-encoded `args`, the result frame
 * (the HTTP fs API's body), `fs.read`'s bytes, the bare `op.complete`; a failure as one frame holding the HTTP
 * fs error body and the `op.error` envelope; the socket reused afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, startTestServer, ENGINES, TOKEN } from '../../support/server.ts';
import { ControlClient, type Frame } from '../../support/control-client.ts';
import type { RunningServer } from '../../../src/server/server.ts';

/** Sends a sprites-go fs op (bare JSON, args URL-encoded, `body` as the following binary frame) and returns its frames. */
async function fsOp(c: ControlClient, op: string, args: Record<string, string>, body?: Buffer, release = true): Promise<Frame[]> {
  const from = c.frames.length;
  c.ws.send(JSON.stringify({ type: 'op.start', op, args: new URLSearchParams(args).toString() }));
  if (body) c.ws.send(body, { binary: true });
  const last = await c.waitFor((f) => f.json?.type === 'op.complete' || f.json?.type === 'op.error', from);
  const frames = c.frames.slice(from, c.frames.indexOf(last) + 1);
  if (release) c.ws.send(JSON.stringify({ type: 'release' })); // as sprites-go does after every op
  return frames;
}

/** The frames of a successful op: its result body (and bytes), then the bare op.complete. */
function ok(frames: Frame[], op: string) {
  expect(frames.at(-1)!.json).toEqual({ type: 'op.complete', op, args: { exitCode: 0 } });
  expect(frames.every((f) => f.binary || !f.data.toString().startsWith('control:'))).toBe(true);
  return { result: frames[0].json, data: frames.length === 3 ? frames[1] : undefined, count: frames.length };
}

/** The single frame of a failed op. */
function failed(frames: Frame[]) {
  expect(frames).toHaveLength(1);
  const e = frames[0].json;
  expect(e).toMatchObject({ type: 'op.error', args: { error: e.error } });
  return e as { op: string; error: string; code: string; path: string; args: { error: string; code: string } };
}

const WD = '/home/sprite';

describe.each(ENGINES)('sprites-go fs ops over the control socket (%s engine)', (engine) => {
  let srv: RunningServer;
  const call = () => api(srv.url);
  beforeAll(async () => {
    srv = await startTestServer(engine, { token: TOKEN });
    await call()('POST', '/v1/sprites', { name: 'box' });
  });
  afterAll(() => srv.close());

  it('runs every op on one socket with the HTTP fs API shapes, then still runs an exec', async () => {
    const c = await ControlClient.open(srv.url, 'box');
    // write: content in the binary frame after op.start; mkdirParents defaults on (sprites-go sends only false)
    const w = ok(await fsOp(c, 'fs.write', { path: 'gofs/a.txt', workingDir: WD, mode: '0640' }, Buffer.from('hello\0go')), 'fs.write');
    expect(w).toMatchObject({ count: 2, result: { path: `${WD}/gofs/a.txt`, size: 8, mode: '0640' } });

    const r = ok(await fsOp(c, 'fs.read', { path: 'gofs/a.txt', workingDir: WD }), 'fs.read');
    expect(r.result).toEqual({ path: `${WD}/gofs/a.txt`, size: 8 });
    expect(r.data).toMatchObject({ binary: true });
    expect(r.data!.data.equals(Buffer.from('hello\0go'))).toBe(true);

    const list = ok(await fsOp(c, 'fs.list', { path: 'gofs', workingDir: WD }), 'fs.list');
    const http = await call()('GET', `/v1/sprites/box/fs/list?path=gofs&workingDir=${WD}`);
    expect(list.result).toEqual(http.json);
    expect(list.result).toMatchObject({ path: `${WD}/gofs`, count: 1, entries: [{ name: 'a.txt', type: 'file', mode: '0640', size: 8, isDir: false }] });

    const stat = ok(await fsOp(c, 'fs.stat', { path: 'gofs/a.txt', workingDir: WD }), 'fs.stat');
    expect(stat.result).toMatchObject({ count: 1, entries: [{ name: 'a.txt', path: `${WD}/gofs/a.txt` }] });

    const chmod = ok(await fsOp(c, 'fs.chmod', { path: 'gofs/a.txt', mode: '0600', workingDir: WD }), 'fs.chmod');
    expect(chmod.result).toEqual({ affected: [{ path: `${WD}/gofs/a.txt`, mode: '0600' }], count: 1 });

    const chown = ok(await fsOp(c, 'fs.chown', { path: 'gofs/a.txt', uid: '1001', gid: '1001', workingDir: WD }), 'fs.chown');
    expect(chown.result).toEqual({ affected: [{ path: `${WD}/gofs/a.txt`, uid: 1001, gid: 1001 }], count: 1 });

    const copy = ok(await fsOp(c, 'fs.copy', { source: 'gofs', dest: 'gofs2', workingDir: WD, recursive: 'true' }), 'fs.copy');
    expect(copy.result).toMatchObject({ count: 2, totalBytes: 8, copied: expect.arrayContaining([{ source: `${WD}/gofs/a.txt`, dest: `${WD}/gofs2/a.txt` }]) });

    const mv = ok(await fsOp(c, 'fs.rename', { source: 'gofs2/a.txt', dest: 'gofs2/b.txt', workingDir: WD }), 'fs.rename');
    expect(mv.result).toEqual({ source: `${WD}/gofs2/a.txt`, dest: `${WD}/gofs2/b.txt` });
    expect((await call()('GET', `/v1/sprites/box/fs/read?path=${WD}/gofs2/b.txt`)).text).toBe('hello\0go');

    const del = ok(await fsOp(c, 'fs.delete', { path: 'gofs2', workingDir: WD, recursive: 'true' }), 'fs.delete');
    expect(del.result).toEqual({ deleted: [`${WD}/gofs2`, `${WD}/gofs2/b.txt`], count: 2 });
    expect((await call()('GET', `/v1/sprites/box/fs/list?path=${WD}/gofs2`)).status).toBe(404);

    if (engine !== 'interpreter') {
      const exec = await c.run({ cmd: ['cat', `${WD}/gofs/a.txt`], stdin: 'false' });
      expect(exec).toMatchObject({ stdout: 'hello\0go', exitCode: 0 });
    }
    expect(c.frames.filter((f) => f.json?.type === 'op.error')).toEqual([]);
    c.ws.close();
  });

  it('answers a failure as one frame holding the HTTP fs error body and op.error, and the socket goes on', async () => {
    const c = await ControlClient.open(srv.url, 'box');
    await call()('PUT', `/v1/sprites/box/fs/write?path=${WD}/errs/f.txt&mkdirParents=true`, Buffer.from('x'));

    const missing = failed(await fsOp(c, 'fs.read', { path: 'errs/nope.txt', workingDir: WD }));
    const http = await call()('GET', `/v1/sprites/box/fs/read?path=errs/nope.txt&workingDir=${WD}`);
    expect(http.status).toBe(404);
    expect({ error: missing.error, code: missing.code, path: missing.path }).toEqual(http.json);
    expect(missing).toMatchObject({ op: 'fs.read', code: 'ENOENT', path: `${WD}/errs/nope.txt`, args: { code: 'op.failed' } });

    expect(failed(await fsOp(c, 'fs.read', { path: 'errs', workingDir: WD }))).toMatchObject({ code: 'EISDIR' });
    expect(failed(await fsOp(c, 'fs.list', { path: 'errs/none', workingDir: WD }))).toMatchObject({ code: 'ENOENT' });
    expect(failed(await fsOp(c, 'fs.delete', { path: 'errs', workingDir: WD }))).toMatchObject({ code: 'ENOTEMPTY', path: `${WD}/errs` });
    expect(failed(await fsOp(c, 'fs.chmod', { path: 'errs/f.txt', mode: '999', workingDir: WD }))).toMatchObject({ code: 'EINVAL' });
    expect(failed(await fsOp(c, 'fs.write', { path: 'errs/f.txt/under', workingDir: WD }, Buffer.from('y')))).toMatchObject({ code: 'ENOTDIR' });
    expect(failed(await fsOp(c, 'fs.rename', { source: 'errs/gone', dest: 'errs/g2', workingDir: WD }))).toMatchObject({ code: 'ENOENT' });
    expect(failed(await fsOp(c, 'fs.copy', { source: 'errs/gone', dest: 'errs/g2', workingDir: WD }))).toMatchObject({ code: 'ENOENT' });
    expect(failed(await fsOp(c, 'fs.chown', { path: 'errs/gone', uid: '0', workingDir: WD }))).toMatchObject({ code: 'ENOENT' });
    // bad arguments name themselves
    expect(failed(await fsOp(c, 'fs.read', { workingDir: WD }))).toMatchObject({ code: 'EINVAL', error: 'missing argument "path"' });
    expect(failed(await fsOp(c, 'fs.delete', { path: 'errs', recursive: 'yes' }))).toMatchObject({ code: 'EINVAL', error: expect.stringContaining('"recursive" must be true or false') });
    expect(failed(await fsOp(c, 'fs.chown', { path: 'errs/f.txt', uid: '-5' }))).toMatchObject({ code: 'EINVAL', error: expect.stringContaining('"uid"') });
    // a byte range is refused loudly, not answered with the whole file
    expect(failed(await fsOp(c, 'fs.read', { path: 'errs/f.txt', workingDir: WD, start: '1', end: '2' }))).toMatchObject({ code: 'EINVAL', error: expect.stringContaining('not supported') });
    expect(failed(await fsOp(c, 'fs.mkdir', { path: 'x' }))).toMatchObject({ op: 'fs.mkdir', args: { code: 'op.not_found', error: expect.stringContaining('fs.read') } });
    // nothing was changed by the failures, and the socket still works
    expect((await call()('GET', `/v1/sprites/box/fs/read?path=${WD}/errs/f.txt`)).text).toBe('x');
    expect(ok(await fsOp(c, 'fs.read', { path: 'errs/f.txt', workingDir: WD }), 'fs.read').result).toEqual({ path: `${WD}/errs/f.txt`, size: 1 });
    c.ws.close();
  });

  it('refuses an fs op while an exec runs (busy), without disturbing the exec', async () => {
    if (engine === 'interpreter') return;
    const c = await ControlClient.open(srv.url, 'box');
    const running = c.start({ cmd: ['sh', '-c', 'read line; echo "got $line"'], stdin: 'true' });
    await c.waitFor((f) => f.json?.type === 'session_info', running);
    const busy = failed(await fsOp(c, 'fs.list', { path: '/' }, undefined, false));
    expect(busy).toMatchObject({ op: 'fs.list', args: { code: 'op.busy' } });
    const after = c.frames.length;
    c.ws.send(Buffer.from([0, ...Buffer.from('in\n')]), { binary: true });
    c.ws.send(Buffer.from([4]), { binary: true });
    const r = await c.end(after);
    expect(r).toMatchObject({ stdout: 'got in\n', exitCode: 0 });
    c.ws.close();
  });

  it('reads a file of several MiB (read and sent in chunks) as one binary message of exactly its size', async () => {
    const c = await ControlClient.open(srv.url, 'box');
    const MiB = 1024 * 1024;
    const bytes = Buffer.alloc(3 * MiB + 5);
    for (let i = 0; i < bytes.length; i += 4096) bytes.writeUInt32BE(i, i);
    bytes.write('END!!', bytes.length - 5);
    ok(await fsOp(c, 'fs.write', { path: 'big/b.bin', workingDir: WD }, bytes), 'fs.write');
    const r = ok(await fsOp(c, 'fs.read', { path: 'big/b.bin', workingDir: WD }), 'fs.read');
    expect(r.result).toEqual({ path: `${WD}/big/b.bin`, size: bytes.length });
    expect(r.count).toBe(3);
    expect(r.data!.data.length).toBe(bytes.length);
    expect(r.data!.data.equals(bytes)).toBe(true);
    // An empty file: its size, then an empty message.
    ok(await fsOp(c, 'fs.write', { path: 'big/empty', workingDir: WD }, Buffer.alloc(0)), 'fs.write');
    const e = ok(await fsOp(c, 'fs.read', { path: 'big/empty', workingDir: WD }), 'fs.read');
    expect(e.result).toEqual({ path: `${WD}/big/empty`, size: 0 });
    expect(e.data!.data.length).toBe(0);
    c.ws.close();
  });

  it('an fs.write whose socket closes before the content arrives writes nothing and leaves the server serving', async () => {
    const c = await ControlClient.open(srv.url, 'box');
    c.ws.send(JSON.stringify({ type: 'op.start', op: 'fs.write', args: `path=${encodeURIComponent(`${WD}/never.txt`)}` }));
    c.ws.close();
    await c.closed;
    const d = await ControlClient.open(srv.url, 'box');
    expect(failed(await fsOp(d, 'fs.read', { path: `${WD}/never.txt` }))).toMatchObject({ code: 'ENOENT' });
    expect(d.ws.readyState).toBe(WebSocket.OPEN);
    d.ws.close();
  });
});
