/**
 * The agent bundle is rebuilt when a checkout moved on: `isStale` compares the bundle with the sources its build
 * listed, so a sprite never boots an agent older than the server that talks to it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isStale } from './bundle.ts';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A project root with one source and a bundle built at `builtAt` (seconds) listing it, the source written at `srcAt`. */
async function tree(srcAt: number, builtAt: number, list: string[] | null = ['src/agent/main.ts']) {
  dir = await mkdtemp(join(tmpdir(), 'bundle-'));
  await mkdir(join(dir, 'src/agent'), { recursive: true });
  await mkdir(join(dir, 'dist/agent'), { recursive: true });
  const src = join(dir, 'src/agent/main.ts');
  const bundle = join(dir, 'dist/agent/agent.mjs');
  await writeFile(src, 'export {};\n');
  await writeFile(bundle, '// built\n');
  if (list) await writeFile(`${bundle}.inputs.json`, JSON.stringify(list));
  await utimes(src, srcAt, srcAt);
  await utimes(bundle, builtAt, builtAt);
  return { root: dir, bundle };
}

describe('isStale', () => {
  it('is true when a listed source changed after the build, false when the build is newer', async () => {
    const newer = await tree(2_000_000, 1_000_000);
    expect(await isStale(newer.bundle, newer.root)).toBe(true);
    await rm(newer.root, { recursive: true, force: true });
    const older = await tree(1_000_000, 2_000_000);
    expect(await isStale(older.bundle, older.root)).toBe(false);
  });

  it('takes a bundle as current when its sources are absent (an installed package)', async () => {
    const absent = await tree(2_000_000, 1_000_000, ['src/agent/gone.ts']);
    expect(await isStale(absent.bundle, absent.root)).toBe(false);
    await rm(join(absent.root, 'dist/agent/agent.mjs.inputs.json'));
    await rm(join(absent.root, 'src'), { recursive: true });
    expect(await isStale(absent.bundle, absent.root)).toBe(false);
  });

  it('rebuilds once a bundle an older build left without a list, beside a source tree (even an older one)', async () => {
    const unlisted = await tree(1_000_000, 2_000_000, null);
    expect(await isStale(unlisted.bundle, unlisted.root)).toBe(true);
  });

  it('is false when there is no bundle at all (the caller builds it)', async () => {
    const t = await tree(2_000_000, 1_000_000);
    expect(await isStale(join(t.root, 'dist/agent/none.mjs'), t.root)).toBe(false);
  });
});
