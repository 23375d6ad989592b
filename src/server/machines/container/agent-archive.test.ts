/**
 * The archive copied into every container sprite: the agent's bundle, and the run-as helper beside it (mode 0755)
 * when one is given, which the agent's `--run-as` then names.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extract } from 'tar-stream';
import { agentArchive } from './agent-archive.ts';
import { RUNAS_PATH } from '../../../protocol/sprite-tree.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-archive-'));
  await writeFile(join(dir, 'agent.mjs'), 'bundle');
  await writeFile(join(dir, 'runas'), 'helper');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Every entry of `archive`: name → mode, uid and content. */
async function entries(archive: Buffer): Promise<Map<string, { mode: number; uid: number; gid?: number; body: string }>> {
  const out = new Map<string, { mode: number; uid: number; gid?: number; body: string }>();
  const x = extract();
  x.on('entry', (h, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: unknown) => void chunks.push(c as Buffer));
    stream.on('end', () => {
      out.set(h.name.replace(/\/$/, ''), { mode: h.mode ?? 0, uid: h.uid ?? 0, ...(h.gid ? { gid: h.gid } : {}), body: Buffer.concat(chunks).toString() });
      next();
    });
  });
  await new Promise<void>((resolve, reject) => {
    x.on('finish', resolve);
    x.on('error', reject);
    x.end(archive);
  });
  return out;
}

describe('the container agent archive', () => {
  it('holds the run-as helper at RUNAS_PATH, root-owned and 0755, when given', async () => {
    const all = await entries(await agentArchive(join(dir, 'agent.mjs'), undefined, join(dir, 'runas')));
    expect(all.get(RUNAS_PATH.slice(1))).toEqual({ mode: 0o755, uid: 0, body: 'helper' });
    expect(all.get('.sprite/agent/agent.mjs')?.body).toBe('bundle');
    expect(all.get('home/sprite')).toMatchObject({ uid: 1001, gid: 1001 });
  });

  it('holds no helper when none is given', async () => {
    const all = await entries(await agentArchive(join(dir, 'agent.mjs')));
    expect(all.has(RUNAS_PATH.slice(1))).toBe(false);
  });
});
