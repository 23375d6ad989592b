/**
 * `npm run coverage` (`tsx scripts/coverage.ts [--check]`): writes docs/coverage.md, the table of every spec
 * operationId (OpenAPI and AsyncAPI) × handler exists × SDK method × conformance test, joined on the one name
 * (docs/architecture.md "One name, four places"). Sources: HTTP handlers from `HANDLERS` (src/server/app.ts); WebSocket
 * handlers by a real handshake against an in-process spritzer; SDK methods from `SDK_METHODS` and, when
 * exported, `SDK_WS_METHODS` (src/sdk); tests
 * from `describe('<operationId>'` titles under test/conformance. `--check` fails when the file is stale.
 * It reports; it decides nothing about what should exist.
 */
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { pino } from 'pino';
import { WebSocket } from 'ws';

type Json = Record<string, any>;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'docs/coverage.md');
const CONFORMANCE_DIR = join(ROOT, 'test/conformance');
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** One row of the table. */
export interface CoverageRow {
  operationId: string;
  spec: 'openapi' | 'asyncapi';
  /** `GET /v1/sprites` or `ws receive /v1/sprites/{name}/exec`. */
  where: string;
  /** Handler state: `yes`, `no`, or a short note (e.g. `404 by design`). */
  handler: string;
  implemented: boolean;
  sdk: boolean;
  tests: ConformanceTests;
}

/** The conformance tests found for an operation. */
export interface ConformanceTests {
  verified: number;
  emulatorOnly: number;
  files: string[];
  /** For an AsyncAPI operation covered through the tests of its channel's other operation. */
  via?: string;
}

/** The operations of the OpenAPI document, in document order. */
export function openapiOperations(doc: Json): Array<{ operationId: string; where: string }> {
  const out: Array<{ operationId: string; where: string }> = [];
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Json)) {
    for (const method of HTTP_METHODS) {
      const op = item?.[method];
      if (op?.operationId) out.push({ operationId: op.operationId, where: `${method.toUpperCase()} ${path}` });
    }
  }
  return out;
}

/** The operations of the AsyncAPI document with their channel key and address. */
export function asyncapiOperations(doc: Json): Array<{ operationId: string; action: string; channel: string; address: string }> {
  return Object.entries((doc.operations ?? {}) as Json).map(([operationId, op]) => {
    const channel = String(op.channel?.$ref ?? '').split('/').pop() ?? '';
    return { operationId, action: op.action, channel, address: doc.channels?.[channel]?.address ?? '' };
  });
}

/**
 * Counts the tests under each `describe('<title>', …)` of the conformance files: `verified.it(` and
 * `emulatorOnly.it(` calls between this describe and the next one.
 */
export function conformanceTests(files: Array<{ path: string; text: string }>): Map<string, ConformanceTests> {
  const out = new Map<string, ConformanceTests>();
  for (const { path, text } of files) {
    const re = /describe\(\s*(['"`])([^'"`$]+)\1/g;
    const hits = [...text.matchAll(re)];
    hits.forEach((m, i) => {
      const body = text.slice(m.index!, i + 1 < hits.length ? hits[i + 1].index : text.length);
      const entry = out.get(m[2]) ?? { verified: 0, emulatorOnly: 0, files: [] };
      entry.verified += (body.match(/\bverified\.it\(/g) ?? []).length;
      entry.emulatorOnly += (body.match(/\bemulatorOnly\.it\(/g) ?? []).length;
      if (!entry.files.includes(path)) entry.files.push(path);
      out.set(m[2], entry);
    });
  }
  return out;
}

function listTestFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return listTestFiles(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/**
 * The operationIds @spritzer/sdk implements: `SDK_METHODS` (HTTP operations) of src/sdk/index.ts, plus
 * `SDK_WS_METHODS` (AsyncAPI operations) when the SDK exports it. Each may be an array, a Set or an object
 * keyed by operationId. Empty, with a note, when the SDK is missing or has no `SDK_METHODS` yet.
 */
async function sdkMethods(): Promise<{ methods: Set<string>; note?: string }> {
  const names = (m: unknown): string[] =>
    Array.isArray(m) || m instanceof Set ? [...(m as Iterable<string>)] : m && typeof m === 'object' ? Object.keys(m) : [];
  try {
    const mod = (await import(pathToFileURL(join(ROOT, 'src/sdk/index.ts')).href)) as { SDK_METHODS?: unknown; SDK_WS_METHODS?: unknown };
    const methods = new Set([...names(mod.SDK_METHODS), ...names(mod.SDK_WS_METHODS)]);
    if (mod.SDK_METHODS === undefined) return { methods, note: 'src/sdk/index.ts does not export SDK_METHODS yet' };
    const note = mod.SDK_WS_METHODS === undefined ? 'the SDK exports no SDK_WS_METHODS, so WebSocket operations show no SDK method' : undefined;
    return { methods, note };
  } catch (err) {
    return { methods: new Set(), note: `src/sdk/index.ts could not be imported: ${(err as Error).message.split('\n')[0]}` };
  }
}

/** Fills `{name}` with the probe sprite and other parameters with `0`, then the first query example. */
function probeUrl(base: string, address: string, query: Json | undefined, sprite: string): string {
  const path = address.replace('{name}', sprite).replace(/\{[^}]+\}/g, '0');
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) for (const item of Array.isArray(v) ? v : [v]) q.append(k, String(item));
  const s = q.toString();
  return `${base.replace(/^http/, 'ws')}${path}${s ? `?${s}` : ''}`;
}

/**
 * Which WebSocket channels spritzer handles, found by a real handshake per channel (with the first example
 * of the channel's query binding): 101 or a lookup failure (e.g. 404 for an unknown session) means a handler;
 * 501 means none; `/control` answering 404 is spritzer's documented choice (docs/wire-reference.md §5.1).
 */
async function probeChannels(doc: Json): Promise<Map<string, { implemented: boolean; note: string }>> {
  const { startServer, defaultDeps } = await import('../src/server/server.ts');
  const { createMachineFactory } = await import('../src/server/machines/index.ts');
  const { SystemClock } = await import('../src/server/core/clock.ts');
  const clock = new SystemClock();
  const token = 'coverage-probe';
  const server = await startServer(defaultDeps({ clock, machines: createMachineFactory('shell', { clock }), token, logger: pino({ level: 'silent' }) }));
  const out = new Map<string, { implemented: boolean; note: string }>();
  try {
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${server.url}/v1/sprites`, { method: 'POST', headers, body: JSON.stringify({ name: 'coverage-probe' }) });
    if (created.status !== 201) throw new Error(`probe sprite not created: HTTP ${created.status}`);
    for (const [key, channel] of Object.entries((doc.channels ?? {}) as Json)) {
      const querySchema = channel.bindings?.ws?.query;
      const ref = typeof querySchema?.$ref === 'string' ? querySchema.$ref.replace(/^#\//, '').split('/') : null;
      const schema = ref ? ref.reduce((n: Json, k: string) => n?.[k], doc) : querySchema;
      const example = (schema?.examples ?? [])[0] as Json | undefined;
      const status = await new Promise<number>((resolve) => {
        const ws = new WebSocket(probeUrl(server.url, channel.address, example, 'coverage-probe'), { headers: { Authorization: `Bearer ${token}` } });
        ws.on('upgrade', () => {
          resolve(101);
          ws.terminate();
        });
        ws.on('unexpected-response', (_req, res) => {
          resolve(res.statusCode ?? 0);
          res.resume();
          ws.terminate();
        });
        ws.on('error', () => resolve(0));
      });
      let entry: { implemented: boolean; note: string };
      if (status === 101) entry = { implemented: true, note: 'yes' };
      else if (status === 501 || status === 0) entry = { implemented: false, note: status === 501 ? 'no (501)' : 'no (no answer)' };
      else if (key === 'control' && status === 404) entry = { implemented: false, note: '404 by design (SDKs use /exec)' };
      else entry = { implemented: true, note: `yes (probe: ${status})` };
      out.set(key, entry);
    }
  } finally {
    await server.close();
  }
  return out;
}

const mark = (ok: boolean) => (ok ? 'yes' : '—');

function testsCell(t: ConformanceTests): string {
  if (t.verified + t.emulatorOnly === 0) return '—';
  const parts = [];
  if (t.verified) parts.push(`${t.verified} verified`);
  if (t.emulatorOnly) parts.push(`${t.emulatorOnly} emulatorOnly`);
  return `${parts.join(', ')}${t.via ? ` (via \`${t.via}\`)` : ''}`;
}

/** Renders the Markdown document. */
export function renderCoverage(rows: CoverageRow[], notes: string[]): string {
  const implemented = rows.filter((r) => r.implemented);
  const tested = (r: CoverageRow) => r.tests.verified + r.tests.emulatorOnly > 0;
  const gaps = implemented.filter((r) => !r.sdk || !tested(r));
  const lines = [
    '# Coverage',
    '',
    '<!-- Generated by `npm run coverage` (scripts/coverage.ts). Do not edit by hand. -->',
    '',
    'Every operationId of `spec/openapi.yaml` and `spec/asyncapi.yaml`, joined on the one name it has in four',
    'places (docs/architecture.md): does spritzer have a **handler**, does `@spritzer/sdk` have a **method** (`SDK_METHODS`),',
    'and which **conformance tests** (`describe(\'<operationId>\')` in `test/conformance`) cover it — `verified`',
    'tests run against spritzer and real Sprites, `emulatorOnly` ones only against spritzer.',
    '',
    `- Operations: ${rows.length} (${rows.filter((r) => r.spec === 'openapi').length} HTTP, ${rows.filter((r) => r.spec === 'asyncapi').length} WebSocket)`,
    `- With a handler: ${implemented.length}`,
    `- Implemented and with an SDK method: ${implemented.filter((r) => r.sdk).length}`,
    `- Implemented and with a conformance test: ${implemented.filter(tested).length}`,
    `- Implemented but missing an SDK method or a test: ${gaps.length ? gaps.map((r) => `\`${r.operationId}\``).join(', ') : 'none'}`,
    ...notes.map((n) => `- Note: ${n}`),
    '',
  ];
  for (const [spec, title] of [
    ['openapi', 'HTTP (spec/openapi.yaml)'],
    ['asyncapi', 'WebSocket (spec/asyncapi.yaml)'],
  ] as const) {
    lines.push(`## ${title}`, '', '| operationId | where | handler | SDK method | conformance tests |', '|---|---|---|---|---|');
    for (const r of rows.filter((x) => x.spec === spec)) {
      lines.push(`| \`${r.operationId}\` | \`${r.where}\` | ${r.handler} | ${mark(r.sdk)} | ${testsCell(r.tests)} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** Builds the rows from the specs, the server, the SDK and the tests. */
export async function buildCoverage(): Promise<{ rows: CoverageRow[]; notes: string[] }> {
  const openapi = parseYaml(readFileSync(join(ROOT, 'spec/openapi.yaml'), 'utf8')) as Json;
  const asyncapi = parseYaml(readFileSync(join(ROOT, 'spec/asyncapi.yaml'), 'utf8')) as Json;
  const { HANDLERS } = await import('../src/server/app.ts');
  const sdk = await sdkMethods();
  const tests = conformanceTests(listTestFiles(CONFORMANCE_DIR).map((p) => ({ path: relative(ROOT, p), text: readFileSync(p, 'utf8') })));
  const none = (): ConformanceTests => ({ verified: 0, emulatorOnly: 0, files: [] });
  const rows: CoverageRow[] = [];
  for (const op of openapiOperations(openapi)) {
    const has = Object.prototype.hasOwnProperty.call(HANDLERS, op.operationId);
    rows.push({ operationId: op.operationId, spec: 'openapi', where: op.where, handler: has ? 'yes' : 'no (501)', implemented: has, sdk: sdk.methods.has(op.operationId), tests: tests.get(op.operationId) ?? none() });
  }
  const channels = await probeChannels(asyncapi);
  const wsOps = asyncapiOperations(asyncapi);
  for (const op of wsOps) {
    const ch = channels.get(op.channel) ?? { implemented: false, note: 'no' };
    let t = tests.get(op.operationId);
    if (!t) {
      const sibling = wsOps.find((o) => o.channel === op.channel && o.operationId !== op.operationId && tests.has(o.operationId));
      if (sibling) t = { ...tests.get(sibling.operationId)!, via: sibling.operationId };
    }
    rows.push({ operationId: op.operationId, spec: 'asyncapi', where: `ws ${op.action} ${op.address}`, handler: ch.note, implemented: ch.implemented, sdk: sdk.methods.has(op.operationId), tests: t ?? none() });
  }
  return { rows, notes: sdk.note ? [sdk.note] : [] };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { rows, notes } = await buildCoverage();
  const text = renderCoverage(rows, notes);
  if (process.argv.includes('--check')) {
    const current = existsSync(OUT) ? readFileSync(OUT, 'utf8') : '';
    if (current !== text) {
      console.error('docs/coverage.md is stale: run `npm run coverage` and commit it');
      process.exit(1);
    }
    console.log('docs/coverage.md is up to date');
  } else {
    writeFileSync(OUT, text);
    console.log(`wrote ${relative(ROOT, OUT)}: ${rows.length} operations`);
  }
  process.exit(0);
}
