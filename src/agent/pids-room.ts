/**
 * How many more tasks (processes and threads) the agent's sprite may create: its pids cgroup's `pids.max` less
 * `pids.current`. A terminal exec needs two (the process, and node-pty's thread that waits for it); a thread that
 * cannot be created aborts the whole agent (a C++ exception in node-pty), which would end every process of the sprite,
 * so the supervisor refuses such an exec first with EAGAIN's message, as a fork at the limit fails.
 * The files: the ones the sandbox engine binds (protocol/sprite-tree.ts `AGENT_PIDS_FILES`), else a container's own
 * cgroup (v1 `pids` hierarchy, or v2).
 * @see https://docs.kernel.org/admin-guide/cgroup-v1/pids.html
 */
import { readFileSync } from 'node:fs';
import { AGENT_PIDS_FILES } from '../protocol/sprite-tree.ts';

const CANDIDATES = [AGENT_PIDS_FILES, { max: '/sys/fs/cgroup/pids/pids.max', current: '/sys/fs/cgroup/pids/pids.current' }, { max: '/sys/fs/cgroup/pids.max', current: '/sys/fs/cgroup/pids.current' }];

/**
 * Tasks the sprite may still create, or undefined when unlimited or unknown (no readable pids files). Reads two
 * small files synchronously (a few microseconds), so the answer is as fresh as the spawn that follows it.
 */
export function pidsRoom(candidates: ReadonlyArray<{ max: string; current: string }> = CANDIDATES): number | undefined {
  for (const files of candidates) {
    let max: string;
    let current: string;
    try {
      max = readFileSync(files.max, 'utf8').trim();
      current = readFileSync(files.current, 'utf8').trim();
    } catch {
      continue;
    }
    if (max === 'max') return undefined;
    const room = Number(max) - Number(current);
    return Number.isFinite(room) ? room : undefined;
  }
  return undefined;
}
