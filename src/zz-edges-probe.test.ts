import { it } from 'vitest';
import { readFileSync } from 'node:fs';
import { FakeClock } from './server/model/clock.ts';
import { Vfs } from './server/model/vfs.ts';
import { createShellEngine } from './server/engines/shell.ts';
it('probe', async () => {
  let out = ''; let err = '';
  const p = createShellEngine({ clock: new FakeClock() }).start({ name: 'd', vfs: Vfs.skeleton(() => 0), allocatePid: () => 5 },
    { argv: ['sh', '-c', readFileSync('/tmp/edges-loop.sh', 'utf8')], env: {}, dir: '/', tty: false, rows: 24, cols: 80 },
    { stdout: (d) => void (out += Buffer.from(d)), stderr: (d) => void (err += Buffer.from(d)) }, { stdin: false });
  console.log(await p.exit, JSON.stringify(out), JSON.stringify(err));
});
