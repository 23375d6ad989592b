// python3's stdout and stderr carry the bytes the program wrote, no more: the worker let Emscripten's terminal device
// print them a line at a time and added a newline to each, so output that did not end with one gained it
// (`print('x', end='')` gave `x\n`, `json.dump(obj, sys.stdout) > f` wrote a byte too many, a flushed partial line
// broke in two), and the program saw a terminal (`sys.stdout.isatty()` True) where a pipe or a file was. Standard
// output and error are now character devices whose bytes the worker gathers, decodes as UTF-8 and hands on as they
// fill 64 KiB and when the program ends; CPython buffers stdout as it does off a terminal.
export default {
  title: "python3's output is the bytes the program wrote, on devices that are not a terminal",
  upstream: 'src/commands/python3/worker.ts: FS.init(stdin, stdoutByte, stderrByte) with byte sinks flushed at the end of callMain, instead of print/printErr callbacks that add a newline per line',
  file: 'dist/bundle/chunks/worker.js',
  edits: [
    {
      find: '  const pendingStderr = [];\n  let Module;',
      replace: [
        '  const pendingStderr = [];',
        '  const __jbStream = (write) => {',
        '    const decoder = new TextDecoder();',
        '    const buf = new Uint8Array(65536);',
        '    let n = 0;',
        '    const flush = (end) => { const text = decoder.decode(buf.subarray(0, n), { stream: !end }); n = 0; if (text) write(text); };',
        '    return { put: (c) => { if (c === null || c === undefined) return; buf[n++] = c & 255; if (n === buf.length) flush(false); }, flush };',
        '  };',
        '  const __jbStdout = __jbStream((t) => moduleReady ? backend.writeStdout(t) : pendingStdout.push(t));',
        '  const __jbStderr = __jbStream((t) => moduleReady ? backend.writeStderr(t) : pendingStderr.push(t));',
        '  let Module;',
      ].join('\n'),
    },
    { find: 'mod.FS.init(readStdin);', replace: 'mod.FS.init(readStdin, __jbStdout.put, __jbStderr.put);' },
    {
      find: '    const ret = Module.callMain([scriptPath]);\n    const exitCode = (typeof ret === "number" ? ret : 0) || process.exitCode || 0;\n    backend.exit(exitCode);',
      replace: '    const ret = Module.callMain([scriptPath]);\n    const exitCode = (typeof ret === "number" ? ret : 0) || process.exitCode || 0;\n    __jbStdout.flush(true);\n    __jbStderr.flush(true);\n    backend.exit(exitCode);',
    },
    {
      find: '    const exitCode = error.status ?? process.exitCode ?? 1;\n    backend.exit(exitCode);',
      replace: '    const exitCode = error.status ?? process.exitCode ?? 1;\n    __jbStdout.flush(true);\n    __jbStderr.flush(true);\n    backend.exit(exitCode);',
    },
  ],
};
