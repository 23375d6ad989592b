/**
 * A big file read through the control socket's `fs.read` (sprites-go `FsReadControl`) is streamed: the sandbox
 * spritzer (a child process, so that its memory is its own) holds about one chunk of it at a time, never the file.
 * The client here takes the whole message, as sprites-go's ReadMessage does; only the server's memory is measured.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { api, TOKEN } from '../support/server.ts';
import { ControlClient } from '../support/control-client.ts';
import { killChildren, startSpritzer, stopSpritzer } from '../support/spritzer-process.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('control fs.read memory');
const MiB = 1024 * 1024;
afterEach(killChildren);

/** Resident memory of `pid` in bytes. */
const rss = (pid: number) => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

describe.skipIf(skip)('control fs.read of a big file on the sandbox engine', () => {
  it('sends every byte while the server grows by far less than the file', async () => {
    const { child, url } = await startSpritzer(['--exec', 'sandbox', '--sandbox-spares', '0', '--token', TOKEN]);
    try {
      const call = api(url);
      expect((await call('POST', '/v1/sprites', { name: 'big' })).status).toBe(201);
      const size = 96 * MiB; // under the client's own 100 MiB message bound
      const made = await call('POST', `/v1/sprites/big/exec?cmd=sh&cmd=-c&cmd=${encodeURIComponent(`truncate -s ${size - 3} /home/sprite/s.bin && printf END >> /home/sprite/s.bin`)}`);
      expect(made.status).toBe(200);
      const c = await ControlClient.open(url, 'big');
      const before = rss(child.pid!);
      let peak = before;
      const timer = setInterval(() => (peak = Math.max(peak, rss(child.pid!))), 5);
      c.ws.send(JSON.stringify({ type: 'op.start', op: 'fs.read', args: 'path=%2Fhome%2Fsprite%2Fs.bin' }));
      const end = await c.waitFor((f) => f.json?.type === 'op.complete' || f.json?.type === 'op.error');
      clearInterval(timer);
      expect(end.json).toEqual({ type: 'op.complete', op: 'fs.read', args: { exitCode: 0 } });
      const [result, data] = c.frames;
      expect(result!.json).toEqual({ path: '/home/sprite/s.bin', size });
      expect(data!.data.length).toBe(size);
      expect(data!.data.subarray(size - 3).toString()).toBe('END');
      console.log(`control fs.read of ${size / MiB} MiB: the server grew by ${((peak - before) / MiB).toFixed(1)} MiB at most`);
      // Held whole, the file alone would be its size (read whole, it grew the server by about 3× that); chunks freed
      // lazily by the garbage collector leave a fraction of it.
      expect(peak - before).toBeLessThan(size);
      c.ws.close();
    } finally {
      expect(await stopSpritzer(child, 'SIGTERM')).toBe(0);
    }
  }, 120_000);
});
