// The embedder's `jsBootstrapCode` runs before js-exec hardens the guest (freezes the intrinsics' prototypes), so
// that it can complete what QuickJS lacks on them (spritzer gives `Number.prototype.toLocaleString` and the Date
// locale methods node's English texts, node-locale.ts: QuickJS has no Intl); the freeze then protects what it added
// as well. It ran after the freeze, where such an assignment silently did nothing.
const BOOTSTRAP = [
  '    if (input.bootstrapCode) {',
  '      const bootstrapResult = context.evalCode(',
  '        input.bootstrapCode,',
  '        "bootstrap.js"',
  '      );',
  '      if (bootstrapResult.error) {',
  '        const errorVal = context.dump(bootstrapResult.error);',
  '        bootstrapResult.error.dispose();',
  '        const errorMsg = formatError(errorVal);',
  '        backend.writeStderr(`js-exec: bootstrap error: ${errorMsg}',
  '`);',
  '        backend.exit(1);',
  '        return { success: true };',
  '      }',
  '      bootstrapResult.value.dispose();',
  '    }',
  '',
].join('\n');

export default {
  title: "js-exec runs the embedder's bootstrap code before it freezes the intrinsics",
  upstream: "src/commands/js-exec/worker.ts: evaluate input.bootstrapCode right after setupContext, before the sandbox-init hardening",
  file: 'dist/bundle/chunks/js-exec-worker.js',
  edits: [
    { find: BOOTSTRAP, replace: '' },
    {
      find: '    setupContext(context, backend, input, processExitMarker);\n    {\n      const initResult = context.evalCode(',
      replace: `    setupContext(context, backend, input, processExitMarker);\n${BOOTSTRAP}    {\n      const initResult = context.evalCode(`,
    },
  ],
};
