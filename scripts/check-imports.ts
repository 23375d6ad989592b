/**
 * The import rules of the house (docs/architecture.md "Import rules"), checked over the import graph of `src/`
 * (non-test files; static, re-export and dynamic `import('…')` specifiers, type-only ones included):
 * - `server/model/` imports only `server/core/`, `server/machines/port.ts`, `src/protocol/` and `generated/`;
 * - a wing (`server/machines/{memory,agent,sandbox,container}/`) imports only the port, the ground floor (`core/`,
 *   `config/`, `runtime/`), `src/protocol/`, its own folder, and (sandbox, container) `machines/agent/`; the memory
 *   wing also runs the in-sprite commands itself (`IN_SPRITE_COMMANDS`: `sprite-env`, `curl-sprite-api`), as the
 *   agent does inside;
 * - nothing below the transports (`server/http/`, `server/ws/`, `server/routes/`) imports them;
 * - no file imports one that imports it back (no circle between files).
 * It exits 1 naming each offending import (`file:line → target: rule`), 0 when the house keeps its rules.
 * It reads text only; npm packages and Node built-ins are not checked.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** One import of a project file: who imports, at which line, which file. */
export interface ImportEdge {
  from: string;
  line: number;
  to: string;
}

/** Every `.ts` source file under `dir` (repo-relative, `/`-separated), tests and built output left out. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = `${dir}/${name}`;
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(join(root, path)).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const SPECIFIER = /(?:^|[\s;}])(?:import|export)\s(?:type\s)?[^'";]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

/** The project files `file` imports, with the line of each import. Comments are skipped line by line. */
export function importsOf(file: string, text: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  const code = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/\/\/[^\n]*/g, '');
  for (const m of code.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    if (!spec.startsWith('.')) continue;
    const to = relative(root, resolve(root, dirname(file), spec)).split('\\').join('/');
    const at = m.index + m[0].search(/import|export/);
    edges.push({ from: file, line: code.slice(0, at).split('\n').length, to });
  }
  return edges;
}

const WINGS = ['memory', 'agent', 'sandbox', 'container'];
/** The agent's in-sprite commands, which the memory wing runs itself on its own engines. */
const IN_SPRITE_COMMANDS = ['src/agent/sprite-env.ts', 'src/agent/curl-sprite-api.ts'];
const TRANSPORTS = ['src/server/http/', 'src/server/ws/', 'src/server/routes/'];
/** Folders that stand below the transports: what they import must not be a transport. */
const BELOW_TRANSPORTS = ['src/server/model/', 'src/server/machines/', 'src/server/core/', 'src/server/config/', 'src/server/runtime/', 'src/server/exec/', 'src/server/operations/', 'src/server/store/', 'src/protocol/', 'src/agent/'];

const under = (path: string, ...dirs: string[]) => dirs.some((d) => path.startsWith(d));

/** The rule `edge` breaks, or undefined when it keeps them all (circles are checked apart). */
export function brokenRule(edge: ImportEdge): string | undefined {
  const { from, to } = edge;
  if (under(from, 'src/server/model/') && !under(to, 'src/server/model/', 'src/server/core/', 'src/protocol/', 'generated/') && to !== 'src/server/machines/port.ts') {
    return 'model/ imports only core/, machines/port.ts, protocol/ and generated/';
  }
  const wing = WINGS.find((w) => from.startsWith(`src/server/machines/${w}/`));
  if (wing) {
    const own = `src/server/machines/${wing}/`;
    const agentBacked = wing === 'sandbox' || wing === 'container';
    const allowed = [own, 'src/server/core/', 'src/server/config/', 'src/server/runtime/', 'src/protocol/', ...(agentBacked ? ['src/server/machines/agent/'] : [])];
    const shared = wing === 'memory' && IN_SPRITE_COMMANDS.includes(to);
    if (!under(to, ...allowed) && to !== 'src/server/machines/port.ts' && !shared) {
      return `a wing imports only the port, core/, config/, runtime/, protocol/ and its own folder${agentBacked ? ' (and machines/agent/)' : ''}`;
    }
  }
  if (under(from, ...BELOW_TRANSPORTS) && under(to, ...TRANSPORTS)) return 'nothing below http/, ws/ and routes/ imports them';
  return undefined;
}

/** The circles of the graph (strongly connected components of more than one file), each as its files. */
export function circles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  // Tarjan's algorithm, iterative so that a deep chain of imports cannot overflow the stack.
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; i: number }> = [{ node: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1]!;
      const targets = next.get(top.node) ?? [];
      if (top.i < targets.length) {
        const t = targets[top.i++]!;
        if (!index.has(t)) {
          index.set(t, counter);
          low.set(t, counter++);
          stack.push(t);
          onStack.add(t);
          work.push({ node: t, i: 0 });
        } else if (onStack.has(t)) low.set(top.node, Math.min(low.get(top.node)!, index.get(t)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== top.node);
        if (component.length > 1) found.push(component.sort());
      }
    }
  }
  return found;
}

/** Checks the whole of `src/`; prints each broken rule and circle; resolves with their count. */
export function checkImports(): number {
  const edges = sourceFiles('src').flatMap((f) => importsOf(f, readFileSync(join(root, f), 'utf8')));
  let broken = 0;
  for (const e of edges) {
    const rule = brokenRule(e);
    if (!rule) continue;
    console.error(`${e.from}:${e.line} → ${e.to}: ${rule}`);
    broken++;
  }
  const inside = new Set(edges.map((e) => e.from));
  for (const circle of circles(edges.filter((e) => inside.has(e.to)))) {
    const ties = edges.filter((e) => circle.includes(e.from) && circle.includes(e.to)).map((e) => `${e.from}:${e.line} → ${e.to}`);
    console.error(`circle of ${circle.length} files: ${ties.join('; ')}`);
    broken++;
  }
  return broken;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const broken = checkImports();
  console.log(broken ? `import rules: ${broken} broken` : 'import rules: kept');
  process.exit(broken ? 1 : 0);
}
