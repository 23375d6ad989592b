/**
 * Checkpoint benchmark: how much a VFS snapshot (checkpoint) and restore cost for a small and a
 * large sprite, and how much memory 100 checkpoints with one file changed between each hold. Run with
 * `npm run bench` (which passes --expose-gc). It prints figures and pass/fail per target; tests never run it and
 * never assert wall-clock time.
 */
import { randomFillSync } from 'node:crypto';
import { Vfs, type VfsSnapshot } from '../src/server/machines/memory/vfs.ts';
import { median } from './lib/timing.ts';

const MiB = 1024 * 1024;
const TARGET_MS = 1;
const RUNS = 2001;

interface Tree {
  vfs: Vfs;
  files: string[];
}

/** A sprite VFS holding `files` files totalling about `bytes`, spread over directories of 100 files. */
function fill(files: number, bytes: number): Tree {
  const vfs = Vfs.skeleton();
  const size = Math.floor(bytes / files);
  const data = new Uint8Array(size);
  const paths: string[] = [];
  for (let i = 0; i < files; i++) {
    const path = `/home/sprite/data/d${Math.floor(i / 100)}/f${i % 100}.bin`;
    randomFillSync(data, 0, Math.min(size, 64)); // distinct contents; writeFile stores its own copy
    vfs.writeFile(path, data, { mkdirParents: true });
    paths.push(path);
  }
  return { vfs, files: paths };
}

/** Median wall time of `fn` in milliseconds over `RUNS` calls, each timed on its own. */
function timeMs(fn: (i: number) => void): number {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    fn(i);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(samples);
}

function measureTimes(tree: Tree): { snapshotMs: number; restoreMs: number } {
  const keep: VfsSnapshot[] = [];
  const snapshotMs = timeMs(() => keep.push(tree.vfs.snapshot()));
  // Two genuinely different trees to alternate between.
  const a = tree.vfs.snapshot();
  tree.vfs.writeFile(tree.files[0]!, 'changed');
  const b = tree.vfs.snapshot();
  const restoreMs = timeMs((i) => tree.vfs.restore(i % 2 ? a : b));
  tree.vfs.restore(a);
  return { snapshotMs, restoreMs };
}

/** Heap + ArrayBuffer bytes in use after a full GC (file contents live in ArrayBuffers, outside the JS heap). */
function memoryInUse(): number {
  globalThis.gc?.();
  globalThis.gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

function measureCheckpointGrowth(tree: Tree, count: number): number {
  const checkpoints: VfsSnapshot[] = [];
  const before = memoryInUse();
  const size = tree.vfs.readFile(tree.files[0]!).byteLength;
  for (let i = 0; i < count; i++) {
    const content = new Uint8Array(size);
    randomFillSync(content);
    tree.vfs.writeFile(tree.files[(i * 97) % tree.files.length]!, content);
    checkpoints.push(tree.vfs.snapshot());
  }
  const after = memoryInUse();
  if (checkpoints.length !== count) throw new Error('unreachable');
  return after - before;
}

const fmt = (ms: number): string => (ms < 1 ? `${(ms * 1000).toFixed(2)} µs` : `${ms.toFixed(2)} ms`);
const verdict = (ok: boolean): string => (ok ? 'PASS' : 'FAIL');

function main(): void {
  if (!globalThis.gc) console.warn('warning: run with --expose-gc (npm run bench does) for accurate heap figures');
  const small = fill(100, 100 * 10 * 1024);
  const t0 = Date.now();
  const large = fill(10_000, 100 * MiB);
  const fillMs = Date.now() - t0;
  const smallTimes = measureTimes(small);
  const largeTimes = measureTimes(large);
  const treeBytes = large.vfs.totalBytes();
  const chunk = new Uint8Array(10 * 1024);
  const writeMs = timeMs((i) => large.vfs.writeFile(large.files[(i * 31) % large.files.length]!, chunk));
  const growth = measureCheckpointGrowth(large, 100);

  // "The same for 100 and 10,000 files": within 2x of each other, allowing 1 µs of timer noise.
  const flat = (x: number, y: number): boolean => Math.max(x, y) <= 2 * Math.min(x, y) + 0.001;
  const rows: Array<[string, string, string, string]> = [
    ['snapshot, 100 files', fmt(smallTimes.snapshotMs), `< ${TARGET_MS} ms`, verdict(smallTimes.snapshotMs < TARGET_MS)],
    ['snapshot, 10,000 files / 100 MB', fmt(largeTimes.snapshotMs), `< ${TARGET_MS} ms`, verdict(largeTimes.snapshotMs < TARGET_MS)],
    ['restore, 100 files', fmt(smallTimes.restoreMs), `< ${TARGET_MS} ms`, verdict(smallTimes.restoreMs < TARGET_MS)],
    ['restore, 10,000 files / 100 MB', fmt(largeTimes.restoreMs), `< ${TARGET_MS} ms`, verdict(largeTimes.restoreMs < TARGET_MS)],
    ['snapshot 10k vs 100 (ratio)', `${(largeTimes.snapshotMs / smallTimes.snapshotMs).toFixed(2)}x`, 'same', verdict(flat(largeTimes.snapshotMs, smallTimes.snapshotMs))],
    ['restore 10k vs 100 (ratio)', `${(largeTimes.restoreMs / smallTimes.restoreMs).toFixed(2)}x`, 'same', verdict(flat(largeTimes.restoreMs, smallTimes.restoreMs))],
    ['write 10 KiB into the 10,000-file tree (path copy)', fmt(writeMs), 'info', '-'],
    [
      '100 checkpoints, 1 file changed each: memory growth',
      `${(growth / MiB).toFixed(2)} MiB = ${(growth / treeBytes).toFixed(3)}x tree`,
      '< 2x tree',
      verdict(growth < 2 * treeBytes),
    ],
  ];

  console.log(`tree: ${large.vfs.fileCount()} files, ${(treeBytes / MiB).toFixed(1)} MiB (filled in ${fillMs} ms); median of ${RUNS} runs; gc ${globalThis.gc ? 'on' : 'OFF'}`);
  const widths = [0, 1, 2, 3].map((c) => Math.max(...[['measure', 'figure', 'target', 'result'], ...rows].map((r) => r[c]!.length)));
  const line = (r: string[]): string => r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ');
  console.log(line(['measure', 'figure', 'target', 'result']));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  if (rows.some((r) => r[3] === 'FAIL')) process.exitCode = 1;
}

main();
