/**
 * A sprite held at its task (pids) limit, for the engines' limit tests: a shell line that starts, in the background,
 * a python3 bomb forking children until fork fails (each child and the parent then sleep 20 s), and the way to find
 * the bomb's parent among the sprite's host pids — ending it frees exactly one task (its children live on, reaped by
 * the sprite's init). Test support only.
 */
import { readFile } from 'node:fs/promises';

/** Run as a command inside the sprite: returns at once, the bomb holds every task the sprite may have for 20 s. */
export const HOLD_EVERY_TASK = `python3 -c '
import os, time
try:
    while True:
        if os.fork() == 0:
            time.sleep(20); os._exit(0)
except OSError:
    pass
time.sleep(20)
' >/dev/null 2>&1 &`;

const status = (pid: number) => readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
const isPython = async (pid: number) => /Name:\s+python3/.test(await status(pid));

/** The host pid, among `pids` (a sprite's), of the bomb's parent: a python3 whose own parent is no python3. */
export async function bombParent(pids: number[]): Promise<number | undefined> {
  for (const pid of pids) {
    const parent = Number(/PPid:\s+(\d+)/.exec(await status(pid))?.[1]);
    if ((await isPython(pid)) && !(await isPython(parent))) return pid;
  }
  return undefined;
}
