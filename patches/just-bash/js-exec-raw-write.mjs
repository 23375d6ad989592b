// js-exec's QuickJS context writes only through console.log/error/warn, each ending its text with a newline, so node's
// `process.stdout.write("a")` (text without a newline) had no way out. The context gets `__spzWrite(fd, text)`, the
// raw write to stdout (1) or stderr (2) that spritzer's node prelude builds process.stdout/stderr on. Once the code
// has exited (`process.exit` in a promise job or timer, where the exit only rejects the job), the worker writes and
// exits no more: the main thread has stopped answering, so a later write or the worker's own final exit waited on it
// until the time limit.
export default {
  title: 'js-exec: a raw write to stdout/stderr for node\'s process.stdout.write; nothing written or exited after an exit',
  upstream: 'src/commands/js-exec/js-exec-worker.ts setupContext: expose a raw write (or process.stdout/stderr.write) beside console',
  file: 'dist/bundle/chunks/js-exec-worker.js',
  edits: [
    {
      find: '  writeStdout(data) {\n    const encoded = new TextEncoder().encode(data);',
      replace: '  writeStdout(data) {\n    if (this.spzExited) return;\n    const encoded = new TextEncoder().encode(data);',
    },
    {
      find: '  writeStderr(data) {\n    const encoded = new TextEncoder().encode(data);',
      replace: '  writeStderr(data) {\n    if (this.spzExited) return;\n    const encoded = new TextEncoder().encode(data);',
    },
    {
      find: '  exit(code) {\n    this.execSync(OpCode.EXIT, "", void 0, code);',
      replace: '  exit(code) {\n    if (this.spzExited) return;\n    this.spzExited = true;\n    this.execSync(OpCode.EXIT, "", void 0, code);',
    },
    {
      find: 'context.setProp(context.global, "console", consoleObj);',
      replace: 'const spzWriteFn = context.newFunction("__spzWrite", (fdHandle, textHandle) => { try { const text = context.getString(textHandle); context.getNumber(fdHandle) === 2 ? backend.writeStderr(text) : backend.writeStdout(text); } catch (e) { return throwError(context, e.message || "write failed"); } return context.undefined; });\n  context.setProp(context.global, "__spzWrite", spzWriteFn);\n  spzWriteFn.dispose();\n  context.setProp(context.global, "console", consoleObj);',
    },
  ],
};
