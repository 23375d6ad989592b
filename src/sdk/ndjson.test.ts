import { describe, it, expect } from 'vitest';
import { createSpritesClient, NdjsonError, SpritesStreamError, checkpointIdFromComplete, parseExecHttpBody, ExecProtocolError } from './index.ts';

/** A response body that delivers exactly these chunks. */
function body(chunks: Array<string | Uint8Array>): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(typeof c === 'string' ? enc.encode(c) : c);
      controller.close();
    },
  });
}

function clientAnswering(chunks: string[]) {
  const fetch = async () => new Response(body(chunks), { status: 200, headers: { 'Content-Type': 'application/x-ndjson' } });
  return createSpritesClient({ baseUrl: 'http://h', token: 't', fetch });
}

const t = '2026-01-13T10:30:00Z';

describe('NDJSON operations', () => {
  it('createCheckpoint yields typed events across chunk boundaries, terminal included', async () => {
    const client = clientAnswering([`{"type":"info","data":"Creating checkpoint...","time":"${t}"}\n{"type":"comp`, `lete","data":"Checkpoint v7 created successfully","time":"${t}"}\n`]);
    const seen: string[] = [];
    for await (const e of await client.createCheckpoint('box', { comment: 'c' })) seen.push(`${e.type}:${e.data}`);
    expect(seen).toEqual(['info:Creating checkpoint...', 'complete:Checkpoint v7 created successfully']);
  });

  it('createCheckpointAndWait parses the id from the complete line', async () => {
    const client = clientAnswering([`{"type":"complete","data":"Checkpoint v12 created successfully","time":"${t}"}\n`]);
    expect((await client.createCheckpointAndWait('box')).id).toBe('v12');
  });

  it('a malformed line is an error, never skipped', async () => {
    const client = clientAnswering([`{"type":"info","data":"x","time":"${t}"}\nnot json\n{"type":"complete","time":"${t}"}\n`]);
    const err = await (await client.createCheckpoint('box')).collect().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NdjsonError);
    expect(err).toMatchObject({ code: 'malformed_line', line: 2 });
  });

  it('a line that is not an object with a type is an error', async () => {
    const client = clientAnswering([`[1,2]\n`]);
    await expect((await client.getServiceLogs('box', 'web')).collect()).rejects.toMatchObject({ code: 'malformed_line' });
  });

  it('a stream that ends without its terminal event is an error', async () => {
    const client = clientAnswering([`{"type":"started","timestamp":1}\n{"type":"error","timestamp":2,"data":"boom"}\n`]);
    await expect((await client.startService('box', 'web')).collect()).rejects.toMatchObject({ name: 'NdjsonError', code: 'missing_terminal' });
  });

  it('wait() throws SpritesStreamError for an error line; restoreCheckpointAndWait too', async () => {
    const failing = [`{"type":"error","error":"Failed to restore checkpoint: gone","time":"${t}"}\n`];
    const err = await clientAnswering(failing).restoreCheckpointAndWait('box', 'v1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpritesStreamError);
    expect((err as SpritesStreamError).message).toBe('Failed to restore checkpoint: gone');
    const kill = clientAnswering([`{"type":"signal","message":"Signaling SIGTERM","signal":"SIGTERM","pid":7}\n{"type":"exited","message":"Process exited"}\n{"type":"complete","exit_code":143}\n`]);
    const events = await (await kill.killExecSession('box', '7', { signal: 'TERM' })).wait();
    expect(events.at(-1)).toEqual({ type: 'complete', exit_code: 143 });
  });

  it('an EventStream can be read only once', async () => {
    const stream = await clientAnswering([`{"type":"complete","timestamp":1}\n`]).stopService('box', 'web');
    await stream.collect();
    await expect(stream.collect()).rejects.toThrow(/only once/);
  });

  it('checkpointIdFromComplete reads the id or nothing', () => {
    expect(checkpointIdFromComplete('Checkpoint v3 created successfully')).toBe('v3');
    expect(checkpointIdFromComplete('done')).toBeUndefined();
    expect(checkpointIdFromComplete(undefined)).toBeUndefined();
  });
});

describe('parseExecHttpBody', () => {
  it('splits stdout and stderr chunks and reads the exit code from the last two bytes', async () => {
    const result = await parseExecHttpBody(body([Uint8Array.of(1, 104, 105), Uint8Array.of(2, 101), Uint8Array.of(3, 42)]));
    expect(result).toEqual({ stdout: 'hi', stderr: 'e', exitCode: 42 });
  });

  it('finds an exit frame split across chunks or merged into the last output chunk', async () => {
    expect(await parseExecHttpBody(body([Uint8Array.of(1, 104, 3), Uint8Array.of(255)]))).toEqual({ stdout: 'h', stderr: '', exitCode: 255 });
    expect(await parseExecHttpBody(body([Uint8Array.of(1, 104, 3, 0)]))).toEqual({ stdout: 'h', stderr: '', exitCode: 0 });
  });

  it('a body without the exit frame is closed_before_exit, never exit 0', async () => {
    const err = await parseExecHttpBody(body([Uint8Array.of(1, 104, 105)])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExecProtocolError);
    expect((err as ExecProtocolError).code).toBe('closed_before_exit');
  });
});
