/**
 * Preloaded into the server under soak (`--expose-gc --import ./bench/lib/soak-probe.mjs`, with an IPC channel):
 * on the IPC message `'soak-probe'` it runs two full GCs and answers with `process.memoryUsage()` (bytes),
 * `code`: the bytes of the heap that hold V8's compiled code, bytecode and their metadata (`v8.getHeapCodeStatistics()`),
 * and `process.getActiveResourcesInfo()` (one entry per live handle or request: `TCPSocketWrap`, `Timeout`, …).
 * It does nothing without an IPC channel and never touches the server's state. Plain JavaScript, so it needs no
 * TypeScript loader. @see bench/soak.ts; https://nodejs.org/api/process.html#processgetactiveresourcesinfo
 */
import { getHeapCodeStatistics } from 'node:v8';

if (process.send) {
  process.on('message', (m) => {
    if (m !== 'soak-probe') return;
    globalThis.gc?.();
    globalThis.gc?.();
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
    const { code_and_metadata_size, bytecode_and_metadata_size } = getHeapCodeStatistics();
    const code = code_and_metadata_size + bytecode_and_metadata_size;
    // The probe's own reply is not yet in flight, so the list holds only the server's resources (and the IPC pipe).
    process.send({ rss, heapUsed, code, external, arrayBuffers, resources: process.getActiveResourcesInfo() });
  });
  // The IPC channel must not keep a server alive once it wants to exit.
  process.channel?.unref();
}
