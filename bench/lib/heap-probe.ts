/**
 * Preloaded into a benchmarked server (`--expose-gc --import ./bench/lib/heap-probe.ts`) when `bench/run.ts`
 * needs heap figures from inside it: on the IPC message `'heap'` it runs two full GCs and answers with
 * `process.memoryUsage()` (bytes). It does nothing without an IPC channel and never touches the server's state.
 */
if (process.send) {
  process.on('message', (m) => {
    if (m !== 'heap') return;
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    gc?.();
    const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage();
    process.send!({ heapUsed, external, arrayBuffers, rss });
  });
  // The IPC channel must not keep a server alive once it wants to exit.
  process.channel?.unref();
}
