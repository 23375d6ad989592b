import { describe, it, expect, onTestFinished } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OUTPUT_PATH, SPEC_PATH, renderTypes, staleness } from './generate.ts';

describe('generate', () => {
  it('types binary bodies as Blob and keys operations by operationId', async () => {
    const text = await renderTypes();
    expect(text).toContain('"application/octet-stream": Blob;');
    expect(text).toMatch(/export interface operations \{[\s\S]*\n {4}createSprite: \{/);
  }, 30000);

  it('finds the committed generated/ file up to date', async () => {
    expect(await staleness()).toBeNull();
  }, 30000);

  it('reports a stale or missing output with the first differing line', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'spritzer-gen-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const stale = path.join(dir, 'openapi.d.ts');
    const lines = (await readFile(OUTPUT_PATH, 'utf8')).split('\n');
    lines[9] = '// edited by hand';
    await writeFile(stale, lines.join('\n'));
    expect(await staleness(SPEC_PATH, stale)).toMatch(/differs from the spec from line 10$/);
    expect(await staleness(SPEC_PATH, path.join(dir, 'missing.d.ts'))).toMatch(/does not exist$/);
  }, 30000);
});
