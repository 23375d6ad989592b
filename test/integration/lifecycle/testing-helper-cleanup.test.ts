/**
 * `spritzer-emulator/testing` leaves nothing behind: a user's test process (test/support/testing-child.ts) that started it
 * and a service inside a sprite ends by passing, by failing, or by Ctrl-C (SIGINT to its process group), and then
 * `ps` shows none of the processes it had started and `ss` no listener on its port. SPRITZER_INTEGRATION_EXEC
 * picks the engine (the integration-sandbox project runs it on sandbox).
 * @see docs/testing.md
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const engine = process.env.SPRITZER_INTEGRATION_EXEC ?? 'shell';

/** Every live (non-zombie) process: pid → {ppid, args}. */
function processes(): Map<number, { ppid: number; args: string }> {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,stat=,args='], { encoding: 'utf8' });
  const all = new Map<number, { ppid: number; args: string }>();
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (m && !m[3].startsWith('Z')) all.set(Number(m[1]), { ppid: Number(m[2]), args: m[4] });
  }
  return all;
}

/** The pid and every live descendant of it, as `ps` shows them now. */
function tree(pid: number): number[] {
  const all = processes();
  const found = [pid];
  for (let i = 0; i < found.length; i++) {
    for (const [child, p] of all) if (p.ppid === found[i] && !found.includes(child)) found.push(child);
  }
  return found.filter((p) => all.has(p));
}

function listeners(port: string): string[] {
  return execFileSync('ss', ['-Hltn', `sport = :${port}`], { encoding: 'utf8' }).split('\n').filter((l) => l.trim());
}

async function startChild(mode: string): Promise<{ child: ChildProcess; pid: number; port: string; exit: Promise<number | string> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/testing-child.ts'], {
    cwd: root, env: { ...process.env, CHILD_MODE: mode, CHILD_ENGINE: engine }, detached: true, stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (b: Buffer) => { err += b; });
  const exit = new Promise<number | string>((resolve) => child.on('exit', (code, sig) => resolve(code ?? sig ?? -1)));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => { out += b; if (out.includes('\n')) resolve(out.split('\n')[0]); });
    void exit.then((code) => reject(new Error(`child exited ${code} before it was ready:\n${out}${err}`)));
  });
  const { pid, baseUrl } = JSON.parse(line) as { pid: number; baseUrl: string };
  return { child, pid, port: new URL(baseUrl).port, exit };
}

describe(`spritzer-emulator/testing on ${engine}: nothing left behind`, () => {
  for (const mode of ['pass', 'fail', 'interrupt'] as const) {
    it(`after a ${mode}`, async () => {
      const { child, pid, port, exit } = await startChild(mode === 'interrupt' ? 'hang' : mode);
      const started = tree(pid);
      if (engine === 'sandbox') expect(started.length).toBeGreaterThan(1); // the sprite's own processes
      expect(listeners(port)).toHaveLength(1);
      if (mode === 'interrupt') process.kill(-child.pid!, 'SIGINT'); // what a terminal's Ctrl-C does
      else child.stdin!.end('go\n');
      const code = await exit;
      expect(code).toBe({ pass: 0, fail: 1, interrupt: 'SIGINT' }[mode]);
      // Processes outside the child's group (sprites in namespaces of their own) may take a moment to be reaped.
      let left = started.filter((p) => processes().has(p));
      for (let i = 0; i < 50 && left.length; i++) {
        await new Promise((r) => setTimeout(r, 100));
        left = started.filter((p) => processes().has(p));
      }
      expect(left.map((p) => `${p} ${processes().get(p)?.args}`)).toEqual([]);
      expect(listeners(port)).toEqual([]);
    }, 60_000);
  }
});
