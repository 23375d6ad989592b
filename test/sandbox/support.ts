/**
 * Test support for the sandbox engine's box (rootfs, storage, launcher, machine): why the tests must skip on this
 * host (printed once), a temp data dir with storage and a base, a plain-command sandbox runner (no agent), and an
 * exec helper for machines. Test set-up only; never used by the server.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, TOKEN } from '../support/server.ts';
import { agentBundle } from '../support/agent.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Machine } from '../../src/server/machines/port.ts';
import { launch, type LaunchSpec, type SandboxExit } from '../../src/server/machines/sandbox/launcher.ts';
import { personalizeLayer, prepareHostBase, seedLayer, type BaseRoot } from '../../src/server/machines/sandbox/rootfs.ts';
import { Storage, type StorageMode } from '../../src/server/machines/sandbox/storage.ts';

/** Why the sandbox cannot run here ('' when it can): not Linux, no bubblewrap, not root. */
export const SKIP_REASON =
  process.platform !== 'linux'
    ? 'not Linux'
    : spawnSync('bwrap', ['--version']).status !== 0
      ? 'bubblewrap (bwrap) is not installed'
      : process.getuid?.() !== 0
        ? 'not root'
        : '';

/** Prints the skip reason once per file, so a skipped run says why. */
export function announceSkip(what: string): boolean {
  if (SKIP_REASON) console.warn(`${what} skipped: ${SKIP_REASON}`);
  return !!SKIP_REASON;
}

/** A temp data dir with storage (btrfs when possible, else copy, or as asked) and the host base with its template. */
export interface Box {
  dataDir: string;
  storage: Storage;
  base: BaseRoot;
  /** Creates sprite `id`'s layer, named `name` (hostname). */
  create(id: string, name?: string): Promise<void>;
  /** Runs `sh -c script` as root in a fresh sandbox on `id`'s layer; resolves when it ends. */
  sh(id: string, script: string, extra?: Partial<LaunchSpec>): Promise<{ out: string; err: string; exit: SandboxExit }>;
  close(): Promise<void>;
}

/** Opens a `Box` in a fresh temp dir. */
export async function openBox(mode: StorageMode | 'auto' = 'auto'): Promise<Box> {
  const dataDir = await mkdtemp(join(tmpdir(), 'spritzer-box-'));
  const storage = await Storage.open({ dataDir, mode });
  const base = await prepareHostBase(join(dataDir, 'base'));
  await storage.createTemplate((dir) => seedLayer(dir, base));
  const names = new Map<string, string>();
  return {
    dataDir,
    storage,
    base,
    async create(id, name = id) {
      names.set(id, name);
      await personalizeLayer(await storage.createLayer(id), base, name);
    },
    async sh(id, script, extra = {}) {
      const sb = await launch({
        hostname: names.get(id) ?? id,
        base,
        layerDir: storage.layerDir(id),
        mergedDir: join(storage.spriteDir(id), 'merged'),
        command: ['sh', '-c', script],
        ...extra,
      });
      const exit = await sb.exited;
      return { ...sb.output(), out: sb.output().stdout, err: sb.output().stderr, exit };
    },
    close: () => storage.close({ removeDataDir: true }),
  };
}

/** Runs `sh -c script` in a machine as the sprite user; resolves with stdout, stderr (UTF-8) and the exit code. */
export async function exec(m: Machine, script: string, opts: { dir?: string; tty?: boolean } = {}): Promise<{ out: string; err: string; code: number }> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const p = m.spawn(
    {
      argv: ['sh', '-c', script],
      env: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOME: '/home/sprite' },
      dir: opts.dir ?? '/home/sprite',
      tty: opts.tty ?? false,
      rows: 24,
      cols: 80,
    },
    { stdout: (d) => out.push(Buffer.from(d)), stderr: (d) => err.push(Buffer.from(d)) },
    { stdin: false },
  );
  const code = await p.exit;
  return { out: Buffer.concat(out).toString('utf8'), err: Buffer.concat(err).toString('utf8'), code };
}

/** Mount points listed in /proc/mounts at or below `dir`. */
export async function mountsUnder(dir: string): Promise<string[]> {
  const { readFile } = await import('node:fs/promises');
  return (await readFile('/proc/mounts', 'utf8'))
    .split('\n')
    .map((l) => l.split(' ')[1] ?? '')
    .filter((p) => p === dir || p.startsWith(`${dir}/`));
}

/**
 * Runs `sh -c script` in a machine as root inside the sprite (the agent's own user, uid 0 of the sprite's user
 * namespace), through the machine's agent: what a sprite's code could do once it had root.
 */
export async function execAsRoot(m: Machine, script: string): Promise<{ out: string; err: string; code: number }> {
  const agent = (m as unknown as { agent?: import('../../src/server/machines/agent/client.ts').AgentClient }).agent;
  if (!agent) throw new Error('the machine has no agent (not booted)');
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const p = agent.spawn(
    { argv: ['sh', '-c', script], env: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOME: '/root' }, dir: '/', tty: false, rows: 24, cols: 80, uid: 0, gid: 0 },
    { stdout: (d) => out.push(Buffer.from(d)), stderr: (d) => err.push(Buffer.from(d)) },
    { stdin: false, pid: 0x7fff_0000 + Math.floor(Math.random() * 0xffff) },
  );
  const code = await p.exit;
  return { out: Buffer.concat(out).toString('utf8'), err: Buffer.concat(err).toString('utf8'), code };
}

/**
 * Runs `sh script` as root through the sprite's `sudo` (src/agent/sudo.ts): the sprite user, as an exec runs it,
 * calls `sudo -n sh FILE`, the script being written to a file first so it needs no quoting. Resolves as {@link exec}.
 */
export async function execViaSudo(m: Machine, script: string): Promise<{ out: string; err: string; code: number }> {
  const file = `/tmp/.sudo-probe-${Math.random().toString(36).slice(2)}.sh`;
  return exec(m, `echo ${Buffer.from(script).toString('base64')} | base64 -d > ${file} && sudo -n sh ${file}; code=$?; rm -f ${file}; exit $code`);
}

/** The host uid of process `pid` (real uid, from /proc). */
export async function hostUidOf(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  return Number(/^Uid:\s+(\d+)/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1]);
}

/**
 * For a `describe` that runs a shared suite (test/support/*-suite.ts) on the sandbox engine: builds the agent bundle
 * and starts a server (with the test token) before its tests, closes it after them. Returns the server's URL getter.
 */
export function useSandboxServer(timeoutMs = 60_000): () => string {
  let srv: RunningServer | undefined;
  beforeAll(async () => {
    await agentBundle();
    srv = await startTestServer('sandbox', { token: TOKEN });
  }, timeoutMs);
  afterAll(async () => {
    await srv?.close();
  });
  return () => srv!.url;
}
