/**
 * The scale curves of the benchmark: how spritzer's cost grows with the number of sprites it holds and with the
 * number of concurrent execs. Each step is measured on one running server, growing it (sprites are added, never
 * recreated), and every answer is checked as in `load.ts`. It owns the load and the curve figures; the CLI
 * (`bench/scale.ts`) prints and plots them.
 * @see docs/performance.md "Scale"
 */
import { createSprite, percentile, pool, request, wsExecOnce, type Now } from './load.ts';
import type { StartedServer } from './servers.ts';

const defaultNow: Now = () => performance.now();

/** Figures at one size of the sprite population. */
export interface SpriteStep {
  /** Sprites held when measured. */
  sprites: number;
  /** Server RSS, MiB. */
  rssMiB: number;
  /** Creates of this step (the sprites added since the previous step), 16 in flight, ms. */
  createP50: number;
  createP99: number;
  /** `GET /v1/sprites/{name}` of one sprite, 200 sequential requests, ms. */
  getP50: number;
  /** Listing every sprite with `GET /v1/sprites?max_results=1000`, page after page, ms in all, and the pages. */
  listAllMs: number;
  listPages: number;
}

/** Figures at one level of exec concurrency. */
export interface ExecStep {
  clients: number;
  /** Per-exec latency, connect → exit frame, ms. */
  p50: number;
  p99: number;
  execsPerSec: number;
}

/**
 * Grows the server's population to each of `sizes` (ascending) and measures each step. Sprites are named
 * `scale-<i>`; the one read by the GET row is `scale-0`.
 */
export async function spriteCurve(server: StartedServer, sizes: number[], now: Now = defaultNow): Promise<SpriteStep[]> {
  const steps: SpriteStep[] = [];
  let held = 0;
  for (const size of sizes) {
    if (size <= held) throw new Error(`sprite curve sizes must ascend: ${sizes.join(', ')}`);
    const latencies: number[] = [];
    const from = held;
    await pool(size - from, 16, async (i) => {
      const t0 = now();
      await createSprite(server, `scale-${from + i}`);
      latencies.push(now() - t0);
    });
    held = size;
    const gets: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = now();
      const r = await request(`${server.url}/v1/sprites/scale-0`);
      if (r.status !== 200) throw new Error(`GET scale-0: HTTP ${r.status}`);
      gets.push(now() - t0);
    }
    const t0 = now();
    let token: string | null = null;
    let pages = 0;
    let listed = 0;
    do {
      const q = new URLSearchParams({ max_results: '1000', ...(token ? { continuation_token: token } : {}) });
      const r = await request(`${server.url}/v1/sprites?${q}`);
      if (r.status !== 200) throw new Error(`list sprites: HTTP ${r.status} ${r.body.toString('utf8').slice(0, 200)}`);
      const page = JSON.parse(r.body.toString('utf8')) as { sprites: unknown[]; has_more: boolean; next_continuation_token: string | null };
      listed += page.sprites.length;
      pages++;
      token = page.has_more ? page.next_continuation_token : null;
    } while (token);
    const listAllMs = now() - t0;
    if (listed < size) throw new Error(`list sprites returned ${listed} of ${size}`);
    steps.push({
      sprites: size,
      rssMiB: server.rssKiB() / 1024,
      createP50: percentile(latencies, 50),
      createP99: percentile(latencies, 99),
      getP50: percentile(gets, 50),
      listAllMs,
      listPages: pages,
    });
  }
  return steps;
}

/**
 * `clients` WebSocket execs of `echo ok` at once, back to back for `seconds`, at each level of `levels`: all on the
 * sprite `spriteOf(i)` names for client i (one sprite: the same name; across sprites: a name per client; the
 * sprites must exist).
 */
export async function execCurve(
  server: StartedServer,
  levels: number[],
  spriteOf: (client: number) => string,
  seconds: number,
  now: Now = defaultNow,
): Promise<ExecStep[]> {
  const steps: ExecStep[] = [];
  for (const clients of levels) {
    for (let i = 0; i < clients; i++) await wsExecOnce(server, spriteOf(i), now); // warm every sprite once
    const samples: number[] = [];
    const t0 = now();
    const end = t0 + seconds * 1000;
    await Promise.all(
      Array.from({ length: clients }, async (_, i) => {
        while (now() < end) samples.push(await wsExecOnce(server, spriteOf(i), now));
      }),
    );
    const elapsed = now() - t0;
    steps.push({ clients, p50: percentile(samples, 50), p99: percentile(samples, 99), execsPerSec: (samples.length / elapsed) * 1000 });
  }
  return steps;
}

/**
 * How a figure grows from the smallest to the largest step, against how the step's size grows: the exponent k
 * of `figure ∝ size^k` fitted through the two ends (0: flat, 1: linear, > 1: faster than linear). Undefined when a
 * figure is not positive or there is one step.
 */
export function growthExponent(points: Array<[size: number, figure: number]>): number | undefined {
  if (points.length < 2) return undefined;
  const [s0, f0] = points[0]!;
  const [s1, f1] = points[points.length - 1]!;
  if (!(s0 > 0 && s1 > s0 && f0 > 0 && f1 > 0)) return undefined;
  return Math.log(f1 / f0) / Math.log(s1 / s0);
}
