'use strict';
/**
 * The part of node-liblzma's API that just-bash's `tar -J` and spritzer's `xz`/`unxz`/`xzcat` use — `xzSync`,
 * `unxzSync`, `check`, `preset` — over liblzma compiled to WebAssembly (liblzma.wasm; liblzma.json says where it
 * came from), so that installing spritzer compiles nothing and loads no native code. The root package.json's
 * `workspaces` link this directory where just-bash's optional dependency `node-liblzma` would be (its version is in
 * just-bash's range), and `npm pack` bundles it with just-bash.
 *
 * Both calls are synchronous, as node-liblzma's are: the module is compiled and instantiated synchronously on first
 * use (about 5 ms). Its memory can grow to 256 MiB (the binary's maximum), enough for presets 0–7; an instance
 * whose memory grew past 64 MiB is dropped after the call, so one `xz -9` does not keep that memory for the
 * process's life. Errors are Error objects with liblzma's return code (`errno`) and XZ Utils' wording.
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const META = JSON.parse(readFileSync(join(__dirname, 'liblzma.json'), 'utf8'));
const X = META.exports;

/** liblzma's return codes (lzma/base.h) and the text xz(1) prints for each. */
const MESSAGES = {
  5: 'Cannot allocate memory',
  6: 'Memory usage limit reached',
  7: 'File format not recognized',
  8: 'Unsupported options',
  9: 'Compressed data is corrupt',
  10: 'Unexpected end of input',
  11: 'Internal error (bug)',
};
const LZMA_OK = 0;
const LZMA_STREAM_END = 1;
const LZMA_RUN = 0;
const LZMA_FINISH = 3;
const LZMA_CONCATENATED = 0x08;
const UINT64_MAX = 0xffffffffffffffffn;

/** Integrity checks (lzma/check.h). */
const check = { NONE: 0, CRC32: 1, CRC64: 4, SHA256: 10 };
/** Preset flags (lzma/container.h): the level is `preset & 0x1f`, EXTREME is `-e`. */
const preset = { DEFAULT: 6, EXTREME: 0x80000000 };

/** lzma_stream (96 bytes on wasm32): the offsets of the fields the loops below set and read. */
const STREAM_SIZE = 96;
const NEXT_IN = 0;
const AVAIL_IN = 4;
const NEXT_OUT = 16;
const AVAIL_OUT = 20;
/** Bytes handed to liblzma per call, each way. */
const CHUNK = 1 << 20;
/** An instance whose memory passed this is dropped after the call (wasm memory never shrinks). */
const KEEP_BELOW = 64 << 20;

let compiled;
let current;

/** The live instance: `{ fn, memory }`, made on first use from the compiled module. */
function instance() {
  if (current) return current;
  compiled ??= new WebAssembly.Module(readFileSync(join(__dirname, 'liblzma.wasm')));
  let memory;
  // Emscripten's emscripten_resize_heap: grow to at least `size` bytes (by a fifth at a time), 1 on success.
  const resize = (size) => {
    size >>>= 0;
    const have = memory.buffer.byteLength;
    for (const want of [Math.max(size, Math.min(Math.ceil(have * 1.2), size + (96 << 20))), size]) {
      try {
        memory.grow(Math.ceil((want - have) / 65536));
        return 1;
      } catch {
        // past the binary's maximum: try the bare request, then report failure (malloc returns NULL)
      }
    }
    return 0;
  };
  const [mod, name] = META.resizeHeap;
  const inst = new WebAssembly.Instance(compiled, { [mod]: { [name]: resize } });
  memory = inst.exports[X.memory];
  inst.exports[X.ctors]();
  const fn = Object.fromEntries(Object.keys(X).map((k) => [k, inst.exports[X[k]]]));
  current = { fn, memory };
  return current;
}

/** An Error for liblzma's return code `ret`, worded as xz(1) words it. */
function lzmaError(ret) {
  return Object.assign(new Error(MESSAGES[ret] ?? `liblzma error ${ret}`), { errno: ret, code: `LZMA_${ret}` });
}

/**
 * Runs one lzma_stream (set up by `init(strm)`) over `input`, in chunks; `cap` bounds the output (RangeError with
 * code ERR_BUFFER_TOO_LARGE past it, as zlib's maxOutputLength does). Frees everything, and drops an instance that
 * grew large or trapped.
 */
function run(input, init, cap) {
  const { fn, memory } = instance();
  const strm = fn.malloc(STREAM_SIZE);
  const inBuf = fn.malloc(CHUNK);
  const outBuf = fn.malloc(CHUNK);
  let ok = false;
  try {
    if (!strm || !inBuf || !outBuf) throw lzmaError(5);
    new Uint8Array(memory.buffer, strm, STREAM_SIZE).fill(0);
    const ret0 = init(fn, strm);
    if (ret0 !== LZMA_OK) throw lzmaError(ret0);
    const chunks = [];
    let total = 0;
    let offset = 0;
    for (;;) {
      const view = new DataView(memory.buffer);
      if (view.getUint32(strm + AVAIL_IN, true) === 0 && offset < input.length) {
        const n = Math.min(CHUNK, input.length - offset);
        new Uint8Array(memory.buffer, inBuf, n).set(input.subarray(offset, offset + n));
        view.setUint32(strm + NEXT_IN, inBuf, true);
        view.setUint32(strm + AVAIL_IN, n, true);
        offset += n;
      }
      view.setUint32(strm + NEXT_OUT, outBuf, true);
      view.setUint32(strm + AVAIL_OUT, CHUNK, true);
      const ret = fn.lzma_code(strm, offset >= input.length ? LZMA_FINISH : LZMA_RUN);
      const produced = CHUNK - new DataView(memory.buffer).getUint32(strm + AVAIL_OUT, true);
      if (produced > 0) {
        total += produced;
        if (total > cap) throw Object.assign(new RangeError(`output passes ${cap} bytes`), { code: 'ERR_BUFFER_TOO_LARGE' });
        chunks.push(Buffer.from(new Uint8Array(memory.buffer, outBuf, produced)));
      }
      if (ret === LZMA_STREAM_END) break;
      if (ret !== LZMA_OK) throw lzmaError(ret);
    }
    ok = true;
    return Buffer.concat(chunks, total);
  } finally {
    if (current && current.memory === memory) {
      try {
        if (strm) fn.lzma_end(strm);
        for (const p of [strm, inBuf, outBuf]) if (p) fn.free(p);
      } catch {
        ok = false;
      }
      if (!ok || memory.buffer.byteLength > KEEP_BELOW) current = undefined;
    }
  }
}

/** The xz header byte of an LZMA2 dictionary size (xz's format: 2 or 3 times a power of two). */
const DICT_BYTE = { 6: 0x16, 7: 0x18, 8: 0x1a, 9: 0x1c };
const DICT_SIZE = { 6: 8 << 20, 7: 16 << 20 };

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * `xz` output whose Block Header names LZMA2 dictionary `level`'s instead of the one it was encoded with: the
 * header's only filter-property byte and its CRC32 are rewritten. Throws when the header is not the single-filter
 * LZMA2 one liblzma's easy encoder writes.
 */
function withDictionaryOf(out, level) {
  const at = 12;
  // Empty input makes no Block: the Index Indicator (0x00) follows the Stream Header, and there is nothing to name.
  if (out[at] === 0x00) return out;
  const size = (out[at] + 1) * 4;
  if (out[at + 1] !== 0x00 || out[at + 2] !== 0x21 || out[at + 3] !== 0x01) throw lzmaError(11);
  out[at + 4] = DICT_BYTE[level];
  out.writeUInt32LE(crc32(out.subarray(at, at + size - 4)), at + size - 4);
  return out;
}

/**
 * `data` compressed to the .xz format as xz(1) writes it (liblzma's stream encoder; one Block). `opts.preset` is
 * 0–9, with `preset.EXTREME` or-ed in for `-e` (default 6); `opts.check` one of `check` (default CRC64).
 *
 * Presets 7–9 only change the dictionary size (8 MiB at 6, 16, 32, 64 MiB), and their encoders need 186, 370 and
 * 674 MiB, more than the 256 MiB this module can have: input that fits a smaller preset's dictionary (8 or 16 MiB)
 * is encoded with that preset and the header is given the asked-for dictionary, which is the byte-for-byte output
 * of XZ Utils' xz for such input (no match can reach further back than the input's start). Larger input at -8 or
 * -9 fails with "Cannot allocate memory" (errno 5).
 * @deviation XZ Utils' xz compresses that input, given the memory (docs/fidelity.md, `xz`).
 */
function xzSync(data, opts = {}) {
  const input = Buffer.isBuffer(data) ? data : Buffer.from(data);
  const p = opts.preset ?? preset.DEFAULT;
  const level = p & 0x1f;
  const extreme = p & preset.EXTREME;
  const c = opts.check ?? check.CRC64;
  const base = level >= 7 ? [6, 7].find((b) => b < level && input.length <= DICT_SIZE[b]) : undefined;
  const encode = (q) => run(input, (fn, strm) => fn.lzma_easy_encoder(strm, q | 0, c), Infinity);
  return base === undefined ? encode(p) : withDictionaryOf(encode(base | extreme), level);
}

/**
 * .xz data (one or more concatenated streams, as xz(1) reads them) decompressed. `opts.maxOutputLength` bounds the
 * output: past it, a RangeError with code ERR_BUFFER_TOO_LARGE. Other failures are liblzma's (corrupt data, end of
 * input, not .xz).
 */
function unxzSync(data, opts = {}) {
  const input = Buffer.isBuffer(data) ? data : Buffer.from(data);
  return run(input, (fn, strm) => fn.lzma_stream_decoder(strm, UINT64_MAX, LZMA_CONCATENATED), opts.maxOutputLength ?? Infinity);
}

/** liblzma's version, e.g. "5.8.4". */
function versionString() {
  const { fn, memory } = instance();
  const bytes = new Uint8Array(memory.buffer);
  const start = fn.lzma_version_string();
  let end = start;
  while (bytes[end] !== 0) end++;
  return Buffer.from(bytes.subarray(start, end)).toString('latin1');
}

exports.xzSync = xzSync;
exports.unxzSync = unxzSync;
exports.versionString = versionString;
exports.check = check;
exports.preset = preset;
