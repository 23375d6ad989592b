import { describe, expect, it } from 'vitest';
import { brokenRule, circles, importsOf, type ImportEdge } from './check-imports.ts';

const edge = (from: string, to: string): ImportEdge => ({ from, line: 1, to });

describe('the import-rule check', () => {
  it('reads static, type-only, re-export, side-effect and dynamic imports of project files, with their lines', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      "export { c } from './c.ts';",
      "import './d.ts';",
      'const e = await import(\'./e.ts\');',
      "import { f } from 'node:fs';",
      "// import { g } from './g.ts';",
    ].join('\n');
    expect(importsOf('src/server/x/y.ts', text)).toEqual([
      { from: 'src/server/x/y.ts', line: 1, to: 'src/server/x/a.ts' },
      { from: 'src/server/x/y.ts', line: 2, to: 'src/server/b.ts' },
      { from: 'src/server/x/y.ts', line: 3, to: 'src/server/x/c.ts' },
      { from: 'src/server/x/y.ts', line: 4, to: 'src/server/x/d.ts' },
      { from: 'src/server/x/y.ts', line: 5, to: 'src/server/x/e.ts' },
    ]);
  });

  it('keeps the model on the port, the ground floor and the protocol', () => {
    expect(brokenRule(edge('src/server/model/sprites.ts', 'src/server/machines/port.ts'))).toBeUndefined();
    expect(brokenRule(edge('src/server/model/sprites.ts', 'src/server/core/clock.ts'))).toBeUndefined();
    expect(brokenRule(edge('src/server/model/sprites.ts', 'src/protocol/signals.ts'))).toBeUndefined();
    expect(brokenRule(edge('src/server/model/sprites.ts', 'src/server/machines/memory/vfs.ts'))).toMatch(/^model\/ imports only/);
    expect(brokenRule(edge('src/server/model/sprites.ts', 'src/server/config/exec-limits.ts'))).toMatch(/^model\/ imports only/);
  });

  it('keeps each wing to the port, the ground floor, the protocol, its own folder and the agent wing', () => {
    expect(brokenRule(edge('src/server/machines/sandbox/launcher.ts', 'src/server/machines/agent/client.ts'))).toBeUndefined();
    expect(brokenRule(edge('src/server/machines/container/boxes.ts', 'src/server/config/machines.ts'))).toBeUndefined();
    expect(brokenRule(edge('src/server/machines/memory/shell/engine.ts', 'src/server/machines/memory/vfs.ts'))).toBeUndefined();
    expect(brokenRule(edge('src/server/machines/memory/machine.ts', 'src/server/machines/agent/client.ts'))).toMatch(/^a wing imports only/);
    // The memory wing runs the agent's in-sprite commands itself, and nothing else of the agent.
    expect(brokenRule(edge('src/server/machines/memory/sprite-env-command.ts', 'src/agent/sprite-env.ts'))).toBeUndefined();
    expect(brokenRule(edge('src/server/machines/memory/sprite-env-command.ts', 'src/agent/curl-sprite-api.ts'))).toBeUndefined();
    expect(brokenRule(edge('src/server/machines/memory/sprite-env-command.ts', 'src/agent/sudo.ts'))).toMatch(/^a wing imports only/);
    expect(brokenRule(edge('src/server/machines/container/container-machine.ts', 'src/server/machines/sandbox/sandbox-machine.ts'))).toMatch(/machines\/agent/);
    expect(brokenRule(edge('src/server/machines/sandbox/launcher.ts', 'src/server/model/sprites.ts'))).toMatch(/^a wing imports only/);
  });

  it('refuses an import of a transport from below it, and allows it from above', () => {
    expect(brokenRule(edge('src/server/operations/fs.ts', 'src/server/http/wire.ts'))).toBe('nothing below http/, ws/ and routes/ imports them');
    expect(brokenRule(edge('src/server/exec/start.ts', 'src/server/ws/channel.ts'))).toBe('nothing below http/, ws/ and routes/ imports them');
    expect(brokenRule(edge('src/server/ws/router.ts', 'src/server/http/errors.ts'))).toBeUndefined();
    expect(brokenRule(edge('src/server/app.ts', 'src/server/routes/sprites.ts'))).toBeUndefined();
  });

  it('finds every file of a circle, and none where imports only run one way', () => {
    const loop = [edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts'), edge('c.ts', 'a.ts'), edge('c.ts', 'd.ts'), edge('d.ts', 'e.ts')];
    expect(circles(loop)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(circles([edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts'), edge('a.ts', 'c.ts')])).toEqual([]);
    expect(circles([edge('x.ts', 'y.ts'), edge('y.ts', 'x.ts'), edge('p.ts', 'q.ts'), edge('q.ts', 'p.ts')])).toHaveLength(2);
  });
});
