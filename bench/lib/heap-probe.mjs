/**
 * Preloaded into a benchmarked server (`--expose-gc --import ./bench/lib/heap-probe.mjs`) when `bench/run.ts`
 * needs heap figures from inside it: on the IPC message `'heap'` it runs two full GCs and answers with
 * `process.memoryUsage()` (bytes). It does nothing without an IPC channel and never touches the server's state.
 * Plain JavaScript, so that it needs no TypeScript loader in a built server.
 */
if (process.send) {
  process.on('message', (m) => {
    if (m !== 'heap') return;
    globalThis.gc?.();
    globalThis.gc?.();
    const { heapUsed, heapTotal, external, arrayBuffers, rss } = process.memoryUsage();
    process.send({ heapUsed, heapTotal, external, arrayBuffers, rss });
  });
  // The IPC channel must not keep a server alive once it wants to exit.
  process.channel?.unref();
}
