// An uncaught exception is reported as node reports one: the error's `name: message` line (`Error: boom`,
// `TypeError: Cannot read properties of null`), then its first frame as a stack line. js-exec printed
// `at <eval> (-c:145:16): boom`, with no line a script could match (`grep '^Error: '`) and no error name.
export default {
  title: 'an uncaught exception prints its name and message first, as node does',
  upstream: 'src/commands/js-exec/worker.ts formatError: print `${name}: ${message}` and the frame below it (node prints err.stack)',
  file: 'dist/bundle/chunks/js-exec-worker.js',
  edits: [
    {
      find: '    const err = errorVal;\n    const msg = err.message;\n    if (err.stack) {\n      const lines = err.stack.split("\\n");\n      for (const line of lines) {\n        const trimmed = line.trim();\n        if (trimmed.startsWith("at ")) {\n          const cleaned = trimmed.replace(/^at <eval> \\((\\/.+)\\)$/, "at $1");\n          return `${cleaned}: ${msg}`;\n        }\n      }\n    }\n    return msg;',
      replace: '    const err = errorVal;\n    const msg = err.message;\n    const head = typeof err.name === "string" && err.name ? (msg === "" ? err.name : `${err.name}: ${msg}`) : msg;\n    if (err.stack) {\n      const lines = err.stack.split("\\n");\n      for (const line of lines) {\n        const trimmed = line.trim();\n        if (trimmed.startsWith("at ")) {\n          const cleaned = trimmed.replace(/^at <eval> \\((\\/.+)\\)$/, "at $1");\n          return `${head}\\n    ${cleaned}`;\n        }\n      }\n    }\n    return head;',
    },
  ],
};
