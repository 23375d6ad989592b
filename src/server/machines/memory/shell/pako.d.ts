/** The parts of pako 1.x (it ships no types) the shell engine's gzip uses. */
declare module 'pako' {
  /** zlib's deflate state, as pako keeps it (the fields gzip-deflate.ts sets to GNU gzip's sizes). */
  export interface DeflateState {
    level: number;
    hash_bits: number;
    hash_size: number;
    hash_mask: number;
    hash_shift: number;
    head: Uint16Array;
  }
  const pako: {
    /** Raw DEFLATE (no zlib or gzip wrapper) of `input` at `level` (0–9), as zlib 1.2.8 writes it. */
    deflateRaw(input: Uint8Array, options?: { level?: number }): Uint8Array;
    /** A streaming deflater: `push(data, true)` finishes, `result` holds the output, `err` zlib's status. */
    Deflate: new (options: { level?: number; raw?: boolean; memLevel?: number }) => { strm: { state: DeflateState }; push(data: Uint8Array, finish: boolean): boolean; result: Uint8Array; err: number };
  };
  export default pako;
}

/** pako's Huffman-tree module: `_tr_tally` records a literal or a match and says whether to end the block. */
declare module 'pako/lib/zlib/trees.js' {
  import type { DeflateState } from 'pako';
  export type TallyState = DeflateState & { last_lit: number; matches: number; strstart: number; block_start: number; dyn_dtree: Uint16Array };
  const trees: { _tr_tally(s: TallyState, dist: number, lc: number): boolean };
  export default trees;
}
