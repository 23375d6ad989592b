/**
 * Summarises a V8 `.cpuprofile` (what `node --cpu-prof` writes) for docs/performance.md: self time per
 * function and per package, and the share of samples with a package anywhere on the stack (inclusive), within
 * an optional time window and per operation when the caller knows how many operations ran in it.
 * It reads the profile only; flame graphs are for Chrome DevTools or speedscope (both open the file as is).
 * @see https://chromedevtools.github.io/devtools-protocol/tot/Profiler/#type-Profile
 */

/** The parts of a `Profiler.Profile` this module reads. Times are µs on the monotonic clock. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; scriptId?: string | number; lineNumber: number; columnNumber?: number };
    children?: number[];
  }>;
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One line of a ranking. `ms` of CPU time; `share` of the active (non-idle) time, 0–1; `usPerOp` when ops known. */
export interface Cost {
  name: string;
  package: string;
  ms: number;
  share: number;
  usPerOp?: number;
}

/** The summary of a profile (or of one window of it). */
export interface ProfileSummary {
  /** Window length, ms. */
  windowMs: number;
  /** Sampled time that was not `(idle)`, ms. */
  activeMs: number;
  samples: number;
  ops?: number;
  /** Active CPU µs per operation (when `ops` is given). */
  usPerOp?: number;
  selfByFunction: Cost[];
  selfByPackage: Cost[];
  /** Time with the package anywhere on the stack (once per sample; `(native)` and `node:process` left out). */
  inclusiveByPackage: Cost[];
  /** Time with the function anywhere on the stack (once per sample), for functions whose name matches `focus`. */
  inclusiveByFunction: Cost[];
}

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);
/** Left out of the inclusive ranking: they sit under every async stack (`runMicrotasks`, `processTicksAndRejections`). */
const STACK_BASE = new Set(['(root)', '(native)', 'node:process']);

/**
 * The package a frame belongs to: a V8 pseudo-frame (`(garbage collector)`…), `node:<module>` for Node's own
 * code (`node:internal/streams/x` → `node:streams`), the npm package for `node_modules/…` (the innermost one),
 * the repository folder for the project's own files (`src/server/http`), `(native)` for V8 builtins and Node's
 * C++ bindings (no script: `scriptId` 0, e.g. `writev`), and `(generated code)` for scripts with no URL (code
 * made with `new Function`, such as ajv's compiled validators).
 */
export function packageOf(url: string, functionName: string, scriptId: string | number = 1): string {
  if (SPECIAL.has(functionName) && !url) return functionName;
  if (!url) return String(scriptId) === '0' ? '(native)' : '(generated code)';
  if (url.startsWith('node:')) {
    const rest = url.slice(5).replace(/^internal\//, '');
    return `node:${rest.split('/')[0]}`;
  }
  const path = decodeURIComponent(url.replace(/^file:\/\//, ''));
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = path.slice(nm + '/node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const m = /\/((?:src|bench|scripts|bin)(?:\/[^/]+)*)\/[^/]+$/.exec(path);
  if (m) return m[1]!.split('/').slice(0, 3).join('/');
  return path;
}

function shortUrl(url: string): string {
  if (!url) return '';
  const path = decodeURIComponent(url.replace(/^file:\/\//, ''));
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) return path.slice(nm + '/node_modules/'.length);
  const m = /\/((?:src|bench|scripts|bin)\/.*)$/.exec(path);
  return m ? m[1]! : path;
}

function rank(map: Map<string, { ms: number; package: string }>, active: number, ops: number | undefined, top: number): Cost[] {
  return [...map.entries()]
    .map(([name, v]) => ({
      name,
      package: v.package,
      ms: v.ms,
      share: active > 0 ? v.ms / active : 0,
      ...(ops ? { usPerOp: (v.ms * 1000) / ops } : {}),
    }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top);
}

/**
 * Summarises `profile` over `[fromUs, toUs]` (whole profile when absent). Each sample weighs the time until
 * the next sample (the last one: the mean interval). `(idle)` is left out of every share; `(program)` and
 * `(garbage collector)` stay in. `ops`: how many operations ran in the window, for µs per operation. `focus`:
 * functions (`name file:line`) whose inclusive time to report, e.g. `/lookupRoute|loggingMiddleware/`.
 */
export function summarizeProfile(
  profile: CpuProfile,
  opts: { fromUs?: number; toUs?: number; ops?: number; top?: number; focus?: RegExp } = {},
): ProfileSummary {
  const top = opts.top ?? 10;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const focus = opts.focus;
  const keyOf = (cf: CpuProfile['nodes'][number]['callFrame']) =>
    `${cf.functionName || '(anonymous)'}${cf.url ? ` ${shortUrl(cf.url)}:${cf.lineNumber + 1}` : ''}`;
  const onStack = new Map<number, { packages: Set<string>; functions: Set<string> }>();
  const stackOf = (id: number): { packages: Set<string>; functions: Set<string> } => {
    const known = onStack.get(id);
    if (known) return known;
    const n = byId.get(id)!;
    const up = parent.get(id);
    const above = up === undefined ? undefined : stackOf(up);
    const packages = new Set(above?.packages);
    const functions = new Set(above?.functions);
    const pkg = packageOf(n.callFrame.url, n.callFrame.functionName, n.callFrame.scriptId);
    if (!STACK_BASE.has(pkg)) packages.add(pkg);
    const key = keyOf(n.callFrame);
    if (focus?.test(key)) functions.add(key);
    const entry = { packages, functions };
    onStack.set(id, entry);
    return entry;
  };
  const packageOfKey = new Map<string, string>();
  for (const n of profile.nodes) packageOfKey.set(keyOf(n.callFrame), packageOf(n.callFrame.url, n.callFrame.functionName, n.callFrame.scriptId));

  const from = opts.fromUs ?? -Infinity;
  const to = opts.toUs ?? Infinity;
  const n = profile.samples.length;
  const meanDelta = n > 1 ? (profile.endTime - profile.startTime) / n : 0;
  const selfFn = new Map<string, { ms: number; package: string }>();
  const selfPkg = new Map<string, { ms: number; package: string }>();
  const inclPkg = new Map<string, { ms: number; package: string }>();
  const inclFn = new Map<string, { ms: number; package: string }>();
  let t = profile.startTime;
  let active = 0;
  let counted = 0;
  for (let i = 0; i < n; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (t < from || t > to) continue;
    const weightMs = (i + 1 < n ? profile.timeDeltas[i + 1]! : meanDelta) / 1000;
    const node = byId.get(profile.samples[i]!)!;
    const { functionName, url, scriptId } = node.callFrame;
    counted++;
    if (functionName === '(idle)') continue;
    active += weightMs;
    const pkg = packageOf(url, functionName, scriptId);
    const fnKey = keyOf(node.callFrame);
    const add = (m: Map<string, { ms: number; package: string }>, k: string, p: string) => {
      const e = m.get(k);
      if (e) e.ms += weightMs;
      else m.set(k, { ms: weightMs, package: p });
    };
    add(selfFn, fnKey, pkg);
    add(selfPkg, pkg, pkg);
    const stack = stackOf(node.id);
    for (const p of stack.packages) add(inclPkg, p, p);
    for (const f of stack.functions) add(inclFn, f, packageOfKey.get(f)!);
  }
  const windowMs = (Math.min(to, profile.endTime) - Math.max(from, profile.startTime)) / 1000;
  return {
    windowMs,
    activeMs: active,
    samples: counted,
    ...(opts.ops ? { ops: opts.ops, usPerOp: (active * 1000) / opts.ops } : {}),
    selfByFunction: rank(selfFn, active, opts.ops, top),
    selfByPackage: rank(selfPkg, active, opts.ops, top),
    inclusiveByPackage: rank(inclPkg, active, opts.ops, top),
    inclusiveByFunction: rank(inclFn, active, opts.ops, Infinity),
  };
}

/** The summary as Markdown tables (function, package, % of active time, µs per operation when known). */
export function formatSummary(title: string, s: ProfileSummary): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const us = (c: Cost) => (c.usPerOp === undefined ? '' : ` | ${c.usPerOp.toFixed(1)}`);
  const perOp = s.ops ? ' | µs/op' : '';
  const sep = s.ops ? '|---' : '';
  const out = [
    `### ${title}`,
    '',
    `window ${s.windowMs.toFixed(0)} ms, active (non-idle) CPU ${s.activeMs.toFixed(0)} ms, ${s.samples} samples` +
      (s.ops ? `, ${s.ops} operations → ${s.usPerOp!.toFixed(0)} µs CPU per operation` : ''),
    '',
    `| # | function (self time) | package | % active${perOp} |`,
    `|---|---|---|---${sep}|`,
    ...s.selfByFunction.map((c, i) => `| ${i + 1} | \`${c.name.replace(/\|/g, '\\|')}\` | ${c.package} | ${pct(c.share)}${us(c)} |`),
    '',
    `| package | self % active${perOp} | package | on stack % active${perOp} |`,
    `|---|---${sep}|---|---${sep}|`,
  ];
  for (let i = 0; i < Math.max(s.selfByPackage.length, s.inclusiveByPackage.length); i++) {
    const a = s.selfByPackage[i];
    const b = s.inclusiveByPackage[i];
    out.push(
      `| ${a ? `${a.name} | ${pct(a.share)}${us(a)}` : `|${s.ops ? ' |' : ''}`} | ${b ? `${b.name} | ${pct(b.share)}${us(b)}` : `|${s.ops ? ' |' : ''}`} |`,
    );
  }
  if (s.inclusiveByFunction.length) {
    out.push('', `| function (on the stack) | package | % active${perOp} |`, `|---|---|---${sep}|`);
    for (const c of s.inclusiveByFunction) out.push(`| \`${c.name.replace(/\|/g, '\\|')}\` | ${c.package} | ${pct(c.share)}${us(c)} |`);
  }
  return out.join('\n');
}
