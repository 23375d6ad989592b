import { it } from 'vitest';
import { SystemClock } from '../model/clock.ts';
import { Vfs } from '../model/vfs.ts';
import { createShellEngine } from './shell.ts';
import { seedLinuxTree } from './linux-skeleton.ts';
const scripts = (process.env.PROBE ?? '').split('\n@@\n');
it('probe', async () => {
  for (const s of scripts) {
    let pid = 1;
    const ctx = { name: 'demo', vfs: seedLinuxTree(Vfs.skeleton(), 'demo'), allocatePid: () => ++pid };
    let out = Buffer.alloc(0), err = Buffer.alloc(0);
    const t0 = Date.now();
    const p = createShellEngine({ clock: new SystemClock(), limits: process.env.TMO ? { maxCommands: 1e7, timeoutMs: Number(process.env.TMO) } : undefined } as any).start(ctx, { argv: ['sh', '-c', s], env: { HOME: '/home/sprite', PATH: '/usr/local/bin:/usr/bin:/bin' }, dir: '/home/sprite', tty: false, rows: 24, cols: 80 },
      { stdout: (d) => (out = Buffer.concat([out, d])), stderr: (d) => (err = Buffer.concat([err, d])) }, { stdin: false });
    const code = await p.exit;
    console.log(`### ${s}\n  exit=${code} ms=${Date.now() - t0}\n  out=${JSON.stringify(out.toString().slice(0, 400))}\n  err=${JSON.stringify(err.toString().slice(0, 400))}`);
  }
}, 120000);
