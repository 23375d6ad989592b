/**
 * `tsx scripts/sweep-remote.ts [--dry-run]`: deletes every sprite named `spritzer-conf-*` on the server named by
 * `SPRITES_BASE_URL` (token from `SPRITES_TOKEN` or `SPRITES_TEST_TOKEN`; a non-loopback URL also needs
 * `SPRITZER_ALLOW_REMOTE=1`), i.e. what a killed conformance run left behind. It deletes nothing else and
 * never runs against the in-process emulator (there is nothing to sweep there).
 */
import { pathToFileURL } from 'node:url';
import { resolveTarget } from '../test/conformance/support/target-config.ts';
import { CONFORMANCE_PREFIX } from '../test/conformance/support/naming.ts';

/** What a sweep did. */
export interface SweepReport {
  found: string[];
  deleted: string[];
  failed: Array<{ name: string; status: number; body: string }>;
}

/**
 * Lists every sprite with the conformance prefix (following continuation tokens) and deletes each one unless
 * `dryRun`. A 404 on delete counts as deleted (someone else removed it first).
 * @see docs/wire-reference.md §3.3 (list), §3.6 (delete)
 */
export async function sweep(baseUrl: string, token: string, opts: { dryRun?: boolean; fetchImpl?: typeof fetch } = {}): Promise<SweepReport> {
  const doFetch = opts.fetchImpl ?? fetch;
  const headers = { Authorization: `Bearer ${token}` };
  const found: string[] = [];
  let continuation: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const q = new URLSearchParams({ prefix: CONFORMANCE_PREFIX, max_results: '50' });
    if (continuation) q.set('continuation_token', continuation);
    const res = await doFetch(`${baseUrl}/v1/sprites?${q}`, { headers });
    if (!res.ok) throw new Error(`listing sprites failed: HTTP ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { sprites?: Array<{ name: string }>; has_more?: boolean; next_continuation_token?: string | null };
    found.push(...(body.sprites ?? []).map((s) => s.name).filter((n) => n.startsWith(CONFORMANCE_PREFIX)));
    continuation = body.has_more && body.next_continuation_token ? body.next_continuation_token : undefined;
    if (!continuation) break;
  }
  const report: SweepReport = { found, deleted: [], failed: [] };
  if (opts.dryRun) return report;
  for (const name of found) {
    const res = await doFetch(`${baseUrl}/v1/sprites/${encodeURIComponent(name)}`, { method: 'DELETE', headers });
    if (res.ok || res.status === 404) report.deleted.push(name);
    else report.failed.push({ name, status: res.status, body: await res.text() });
  }
  return report;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dryRun = process.argv.includes('--dry-run');
  let target;
  try {
    target = resolveTarget(process.env);
  } catch (err) {
    console.error(`sweep-remote: ${(err as Error).message}`);
    process.exit(1);
  }
  if (target.kind !== 'remote') {
    console.error('sweep-remote: set SPRITES_BASE_URL and SPRITES_TOKEN (and SPRITZER_ALLOW_REMOTE=1 for a non-local server)');
    process.exit(1);
  }
  const report = await sweep(target.baseUrl!, target.token, { dryRun });
  console.log(`${dryRun ? 'would delete' : 'deleted'} ${dryRun ? report.found.length : report.deleted.length} sprite(s) named ${CONFORMANCE_PREFIX}*`);
  for (const name of dryRun ? report.found : report.deleted) console.log(`  ${name}`);
  for (const f of report.failed) console.error(`  failed: ${f.name}: HTTP ${f.status} ${f.body.trim()}`);
  process.exit(report.failed.length ? 1 : 0);
}
