// node's event loop for code js-exec runs: once the script has run, the worker asks the embedder's prelude for the next
// turn (`globalThis.__spzTurn(completion)`, spritzer's node prelude): the prelude runs what is due (a timer, an
// immediate, stdin's events), reports an unhandled rejection or ends the process, and answers how long to wait before
// the next turn (milliseconds; negative: the loop is empty). The worker sleeps that long (Atomics.wait: the thread is
// the program's, and the main thread can still end it, `timeout`) and runs the promise jobs after every turn, as node
// drains its microtasks after every callback. The first turn gets the script's completion value (a promise the
// program's last statement made and dropped). Without a `__spzTurn` (plain js-exec) the jobs run once, as before.
// js-exec ran timers without waiting (a `setTimeout(f, 1000)` fired at once) and a program never ended with an
// unhandled rejection.
export default {
  title: "js-exec: node's event loop (timers that wait, promise jobs after each callback) driven by the embedder's prelude",
  upstream: 'src/commands/js-exec/js-exec-worker.ts executeCode: after the script, loop over a guest-provided turn function, sleeping between turns and running pending jobs after each (a real timer queue in the worker)',
  file: 'dist/bundle/chunks/js-exec-worker.js',
  edits: [
    {
      find: 'async function executeCode(input) {',
      replace: [
        'function spzEventLoop(context, runtime, backend, completion) {',
        '  const turn = context.getProp(context.global, "__spzTurn");',
        '  if (context.typeof(turn) !== "function") {',
        '    turn.dispose();',
        '    return runtime.executePendingJobs();',
        '  }',
        '  const sleeper = new Int32Array(new SharedArrayBuffer(4));',
        '  try {',
        '    let first = true;',
        '    for (;;) {',
        '      const r = first && completion ? context.callFunction(turn, context.undefined, completion) : context.callFunction(turn, context.undefined);',
        '      first = false;',
        '      if (r.error) return { error: r.error };',
        '      const wait = context.getNumber(r.value);',
        '      r.value.dispose();',
        '      if (backend.spzExited || !(wait >= 0)) return { value: 0 };',
        '      if (wait > 0) Atomics.wait(sleeper, 0, 0, Math.min(wait, 2147483647));',
        '      const jobs = runtime.executePendingJobs();',
        '      if (jobs.error) return jobs;',
        '      if (backend.spzExited) return { value: 0 };',
        '    }',
        '  } finally {',
        '    turn.dispose();',
        '  }',
        '}',
        'async function executeCode(input) {',
      ].join('\n'),
    },
    {
      find: '    const pendingResult = runtime.executePendingJobs();',
      replace: '    const pendingResult = spzEventLoop(context, runtime, backend, input.isModule ? void 0 : result.value);',
    },
  ],
};
