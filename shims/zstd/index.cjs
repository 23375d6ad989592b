'use strict';
/**
 * The API of @mongodb-js/zstd that just-bash's `tar --zstd` calls — `compress(buffer, level)` and
 * `decompress(buffer)`, both resolving to a Buffer — over the codecs spritzer's own `zstd` uses: the reference
 * library built to WebAssembly (@bokuweb/zstd-wasm) to compress, fzstd (plain JavaScript) to decompress. The root
 * package.json's `workspaces` link this directory where just-bash's optional dependency `@mongodb-js/zstd` would be, so
 * that installing spritzer neither downloads nor compiles a native zstd. spritzer's shell engine answers `tar --zstd`
 * itself (machines/memory/shell/tar-zstd.ts); this keeps just-bash's own path working should it be reached.
 */
const { decompress: fzstdDecompress } = require('fzstd');

let library;
/** @bokuweb/zstd-wasm, started once. */
function zstdWasm() {
  library ??= (async () => {
    const lib = require('@bokuweb/zstd-wasm');
    await lib.init();
    return lib;
  })();
  return library;
}

/** `data` as one Zstandard frame at `level` (1–22; default 3, the zstd CLI's). */
async function compress(data, level = 3) {
  return Buffer.from((await zstdWasm()).compress(data, level));
}

/** Zstandard data (one or more frames) decompressed; rejects on data fzstd cannot read. */
async function decompress(data) {
  return Buffer.from(fzstdDecompress(data));
}

exports.compress = compress;
exports.decompress = decompress;
