// In QuickJS `process.exit()` is an exception the guest's own `try … catch` can catch, where node's process.exit ends
// the process at once. Code that caught it (a `try` around a call the embedder refuses: its refusal exits) ran on, and
// its next call through the sync bridge (an fs call, a write) waited for a main thread that had stopped answering at
// the exit: the shared worker hung, and every later js-exec run queued behind it. Once the code has exited, a bridge
// call fails at once without reaching the main thread (no file is touched after the exit), and the interrupt handler
// ends the guest's execution at its next check (QuickJS's interrupt cannot be caught), so nothing after the exit runs
// for long.
export default {
  title: 'js-exec: once the code has exited (process.exit, even caught), nothing more reaches the main thread and the guest is interrupted',
  upstream: 'src/commands/worker-bridge/sync-backend.ts execSync and src/commands/js-exec/js-exec-worker.ts executeCode: after EXIT, refuse further operations and interrupt the QuickJS runtime',
  file: 'dist/bundle/chunks/js-exec-worker.js',
  edits: [
    {
      find: '  execSync(opCode, path, data, flags = 0, mode = 0) {\n    this.protocol.reset();',
      replace: '  execSync(opCode, path, data, flags = 0, mode = 0) {\n    if (this.spzExited && opCode !== OpCode.EXIT) return { success: false, error: "process has exited" };\n    this.protocol.reset();',
    },
    {
      find: '      return interruptCount > INTERRUPT_CYCLES;',
      replace: '      return backend.spzExited || interruptCount > INTERRUPT_CYCLES;',
    },
  ],
};
