// js-exec's fs is a fixed list of whole-file calls (readFile, writeFile, mkdir, rm…) without node's options: no
// `flag` ('wx' must fail on an existing file, 'a' appends), no creation `mode`, no access(2), truncate, utimes, hard
// links or file descriptors. The worker gets `__spzFs(requestJson)`, one more operation of the sync bridge (code 500)
// that the main thread hands to its file system's `spzNodeFs(cwd, requestJson)` (spritzer's node fs, node-fs.ts): the
// embedder implements node's semantics over its own files (permissions of the running user, umask, hard links) and
// answers JSON. A file system without it answers an error.
export default {
  title: "js-exec: an embedder fs call through the sync bridge (node's fs options, access, truncate, utimes, link, descriptors)",
  upstream: 'src/commands/worker-bridge (protocol, sync-backend, bridge-handler): an extension operation the embedder can serve',
  file: 'dist/bundle/chunks/js-exec-worker.js',
  edits: [
    {
      find: '  spzCryptoFn.dispose();',
      replace: [
        '  spzCryptoFn.dispose();',
        '  const spzFsFn = context.newFunction("__spzFs", (jsonHandle) => {',
        '    const result = backend.execSync(500, "", new TextEncoder().encode(context.getString(jsonHandle)));',
        '    if (!result.success) return throwError(context, result.error || "fs call failed");',
        '    return context.newString(new TextDecoder().decode(result.result ?? new Uint8Array(0)));',
        '  });',
        '  context.setProp(context.global, "__spzFs", spzFsFn);',
        '  spzFsFn.dispose();',
      ].join('\n'),
    },
  ],
};
