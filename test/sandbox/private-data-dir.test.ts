/**
 * The sandbox engine's data dir is private to host root: the dir is 0711 and its `sprites/` 0711 (each sprite, an
 * unprivileged host user of its own, must reach its own 0700 dir there), every other directory 0700 and every file
 * 0600, the btrfs image included, so another host user (`nobody`) can read no sprite's file, not even one the sprite
 * wrote with `umask 077` (through the image's raw bytes). Both for the default temp dir and for a `--data-dir` that
 * existed world-readable. Skips with the reason printed where the sandbox cannot run.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentBundle } from '../support/agent.ts';
import { SandboxMachineFactory } from '../../src/server/machines/sandbox/sandbox-machine.ts';
import { entriesUnder, readableByNobody } from '../support/unprivileged.ts';
import { announceSkip, exec } from './support.ts';

const skip = announceSkip('sandbox private data dir tests');

// The explicit data dir's parent is searchable by everyone, as /var/lib or a home directory often is.
const parent = skip ? '' : mkdtempSync(join(tmpdir(), 'spritzer-private-'));
if (!skip) chmodSync(parent, 0o711);
afterAll(() => {
  if (parent) rmSync(parent, { recursive: true, force: true });
});

const SECRET = `secret-${Math.random().toString(36).slice(2)}`;

describe.skipIf(skip)('the sandbox engine’s data dir', () => {
  it.each([
    ['the default temp dir', undefined],
    ['a --data-dir that existed world-readable', 'explicit'],
  ] as const)('%s: another host user reads nothing in it, not even the disk image', async (_what, name) => {
    await agentBundle();
    const dataDir = name ? join(parent, name) : undefined;
    if (dataDir) mkdirSync(dataDir, { mode: 0o755 });
    const factory = await SandboxMachineFactory.open({ dataDir, limits: { pids: 512 } });
    try {
      const sprite = await factory.create({ name: 'private', id: `private-${name ?? 'temp'}` });
      expect((await exec(sprite, `umask 077; echo ${SECRET} > /home/sprite/mine; sync; cat /home/sprite/mine`)).out).toBe(`${SECRET}\n`);
      const dir = factory.dataDir;
      const entries = entriesUnder(dir);
      expect(readableByNobody(entries, SECRET)).toEqual({ readable: [], leaking: [] });
      const top = entriesUnder(dir, 1);
      const modes = Object.fromEntries(top.map((p) => [p.slice(dir.length) || '/', (lstatSync(p).mode & 0o7777).toString(8)]));
      const open = new Set([dir, join(dir, 'sprites')]);
      // The run-as helper is execute-only: a sprite's root (an unprivileged host uid) runs it, nobody reads it.
      const runnable = new Set([join(dir, 'spritzer-runas')]);
      const want = Object.fromEntries(top.map((p) => [p.slice(dir.length) || '/', open.has(p) || runnable.has(p) ? '711' : lstatSync(p).isDirectory() ? '700' : '600']));
      expect(modes).toEqual(want);
    } finally {
      await factory.close();
    }
  });
});
