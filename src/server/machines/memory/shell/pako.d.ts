/** The part of pako (it ships no types in 1.x) the shell engine's gzip uses: raw deflate of a byte array. */
declare module 'pako' {
  const pako: {
    /** Raw DEFLATE (no zlib or gzip wrapper) of `input` at `level` (0–9), as zlib 1.2.8 writes it. */
    deflateRaw(input: Uint8Array, options?: { level?: number }): Uint8Array;
  };
  export default pako;
}
