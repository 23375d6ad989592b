/**
 * Container engine benchmark (figures in docs/container.md "Figures"): create (container up, agent answering), the
 * `echo ok` round trip through the exec bridge, and checkpoint (docker commit) and restore (recreate from the image) of
 * a sprite holding 100 files / 1 MB and 2,000 files / 20 MB. It prints figures only; tests never run it and never
 * assert wall-clock time. Needs a daemon (DOCKER_HOST) and an image with node (SPRITZER_SPRITE_IMAGE;
 * `npm run test:container` builds one); otherwise it says so and exits 0. Run: `npm run bench:container`.
 */
import { ContainerMachineFactory, type ContainerMachine } from '../src/server/machines/container/container-machine.ts';
import { median, timed } from './lib/timing.ts';

function ms(n: number): string {
  return `${n.toFixed(0)} ms`;
}

async function run(m: ContainerMachine, script: string): Promise<number> {
  const p = m.spawn(
    { argv: ['sh', '-c', script], env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/home/sprite' }, dir: '/home/sprite', tty: false, rows: 24, cols: 80 },
    { stdout: () => undefined, stderr: () => undefined },
    { stdin: false },
  );
  return p.exit;
}

const image = process.env.SPRITZER_SPRITE_IMAGE;
if (!process.env.DOCKER_HOST || !image) {
  console.log('bench:container skipped: set DOCKER_HOST and SPRITZER_SPRITE_IMAGE (an image with node 20)');
  process.exit(0);
}
const factory = await ContainerMachineFactory.open({ image, namespace: 'bench' });
try {
  const creates: number[] = [];
  for (let i = 0; i < 3; i++) {
    const [t, m] = await timed(() => factory.create({ name: `c${i}`, id: `sprite-c${i}` }));
    creates.push(t);
    if (i > 0) await m.destroy();
  }
  console.log(`create (container up, agent answering)   median ${ms(median(creates))} of ${creates.map(ms).join(', ')}`);
  const m = await factory.create({ name: 'bench', id: 'sprite-bench' });
  const echoes: number[] = [];
  for (let i = 0; i < 20; i++) echoes.push((await timed(() => run(m, 'echo ok')))[0]);
  console.log(`echo ok round trip                       median ${ms(median(echoes))}`);
  for (const [files, bytes] of [[100, 1_000_000], [2000, 20_000_000]] as const) {
    await run(m, `rm -rf data; mkdir -p data; i=0; while [ $i -lt ${files} ]; do head -c ${Math.floor(bytes / files)} /dev/urandom > data/f$i; i=$((i+1)); done`);
    const [tc, snap] = await timed(() => m.snapshot());
    await run(m, 'rm -rf data');
    const [tr] = await timed(() => m.restore(snap));
    console.log(`${files} files / ${bytes / 1e6} MB: checkpoint ${ms(tc)}, restore ${ms(tr)}`);
    await m.releaseSnapshot(snap);
  }
} finally {
  await factory.close();
}
