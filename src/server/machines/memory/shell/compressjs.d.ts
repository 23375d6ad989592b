/** The part of compressjs (it ships no types) the shell engine's `bzip2` uses: its Bzip2 codec on byte arrays. */
declare module 'compressjs' {
  const compressjs: {
    Bzip2: {
      /** Compresses `input` with blocks of `blockSize100k` × 100 kB (1–9). */
      compressFile(input: Uint8Array, output?: undefined, blockSize100k?: number): ArrayLike<number>;
      /**
       * Decompresses a whole .bz2 stream; throws on data that is not one. With `output`, each byte goes to its
       * `writeByte` (which may throw to stop it) instead of a growing array.
       */
      decompressFile(input: Uint8Array, output?: { writeByte(b: number): void }): ArrayLike<number>;
    };
  };
  export default compressjs;
}
