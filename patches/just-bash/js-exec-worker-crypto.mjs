// node's crypto module for code js-exec runs: QuickJS has no crypto, so `require('crypto').createHash('sha256')`
// was refused. The QuickJS context gets `__spzCrypto(json)`, answered by the worker with Node's own crypto:
// `{ op: "digest", alg, key?, data, enc }` (a hash or an HMAC of base64 bytes), `{ op: "random", size }`,
// `{ op: "uuid" }`, `{ op: "hashes" }`; bytes travel as base64. spritzer's node prelude builds the module's
// createHash/createHmac/randomBytes/randomUUID/randomInt/getHashes/timingSafeEqual on it.
export default {
  title: "js-exec: node's crypto digests, HMACs and random bytes from the worker's own crypto",
  upstream: 'src/commands/js-exec/js-exec-worker.ts setupContext: a host function for node:crypto createHash/createHmac/randomBytes/randomUUID',
  file: 'dist/bundle/chunks/js-exec-worker.js',
  edits: [
    {
      find: 'import { parentPort } from "node:worker_threads";',
      replace: 'import { parentPort } from "node:worker_threads";\nimport * as spzNodeCrypto from "node:crypto";',
    },
    {
      find: '  spzTextFn.dispose();\n',
      replace: [
        '  spzTextFn.dispose();',
        '  const spzCryptoFn = context.newFunction("__spzCrypto", (jsonHandle) => {',
        '    try {',
        '      const q = JSON.parse(context.getString(jsonHandle));',
        '      let out;',
        '      if (q.op === "digest") {',
        '        const data = Buffer.from(q.data, "base64");',
        '        const h = q.key === undefined ? spzNodeCrypto.createHash(q.alg) : spzNodeCrypto.createHmac(q.alg, Buffer.from(q.key, "base64"));',
        '        out = h.update(data).digest().toString("base64");',
        '      } else if (q.op === "random") out = spzNodeCrypto.randomBytes(q.size).toString("base64");',
        '      else if (q.op === "uuid") out = spzNodeCrypto.randomUUID();',
        '      else if (q.op === "hashes") out = JSON.stringify(spzNodeCrypto.getHashes());',
        '      else throw new Error("unknown crypto request");',
        '      return context.newString(out);',
        '    } catch (e) {',
        '      return throwError(context, e.message || "crypto failed");',
        '    }',
        '  });',
        '  context.setProp(context.global, "__spzCrypto", spzCryptoFn);',
        '  spzCryptoFn.dispose();',
        '',
      ].join('\n'),
    },
  ],
};
