import { describe, expect, it } from 'vitest';
import { packageOf, summarizeProfile, type CpuProfile } from './cpuprofile.ts';

const ROOT = 'file:///repo';
const frame = (functionName: string, url = '', scriptId = 1) => ({ functionName, url, scriptId: String(scriptId), lineNumber: 0 });

/**
 * root ─┬─ (idle)                                   id 2
 *       ├─ (program)                                id 3
 *       └─ handler src/server/app.ts                id 4
 *            └─ middleware express-openapi-validator id 5
 *                 ├─ validate0 (ajv, new Function)  id 6
 *                 └─ middleware (recursion)          id 7
 *                      └─ writev (native)            id 8
 */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', '', 0), children: [2, 3, 4] },
    { id: 2, callFrame: frame('(idle)', '', 0) },
    { id: 3, callFrame: frame('(program)', '', 0) },
    { id: 4, callFrame: frame('handler', `${ROOT}/src/server/app.ts`), children: [5] },
    { id: 5, callFrame: frame('middleware', `${ROOT}/node_modules/express-openapi-validator/dist/m.js`), children: [6, 7] },
    { id: 6, callFrame: frame('validate0', '', 42) },
    { id: 7, callFrame: frame('middleware', `${ROOT}/node_modules/express-openapi-validator/dist/m.js`), children: [8] },
    { id: 8, callFrame: frame('writev', '', 0) },
  ],
  startTime: 1000,
  endTime: 2000,
  // Ten samples 100 µs apart: each weighs the delta to the next one.
  samples: [2, 2, 4, 6, 6, 8, 8, 8, 3, 2],
  timeDeltas: [100, 100, 100, 100, 100, 100, 100, 100, 100, 100],
};

describe('cpuprofile summary', () => {
  it('ranks self time by function and package, leaving idle out of the shares', () => {
    const s = summarizeProfile(profile);
    expect(s.samples).toBe(10);
    expect(s.activeMs).toBeCloseTo(0.7);
    expect(s.selfByFunction[0]).toMatchObject({ name: 'writev', package: '(native)' });
    expect(s.selfByFunction[0]!.share).toBeCloseTo(3 / 7);
    const pkgs = Object.fromEntries(s.selfByPackage.map((c) => [c.name, c.share]));
    expect(pkgs['(generated code)']).toBeCloseTo(2 / 7);
    expect(pkgs['src/server']).toBeCloseTo(1 / 7);
    expect(pkgs['(program)']).toBeCloseTo(1 / 7);
    expect(pkgs['(idle)']).toBeUndefined();
  });

  it('counts a package once per sample on the stack, even through recursion', () => {
    const incl = Object.fromEntries(summarizeProfile(profile).inclusiveByPackage.map((c) => [c.name, c.share]));
    expect(incl['express-openapi-validator']).toBeCloseTo(5 / 7);
    expect(incl['src/server']).toBeCloseTo(6 / 7);
  });

  it('keeps to a time window and gives µs per operation', () => {
    // Samples are stamped 1100, 1200, … 2000; the window holds the six from 1400 to 1900.
    const s = summarizeProfile(profile, { fromUs: 1400, toUs: 1900, ops: 3 });
    expect(s.samples).toBe(6);
    expect(s.activeMs).toBeCloseTo(0.6);
    expect(s.usPerOp).toBeCloseTo(200);
    expect(s.selfByFunction.map((c) => c.name)).toEqual(['writev', 'validate0', '(program)']);
  });
});

describe('packageOf', () => {
  it('names npm packages, node modules, project folders and frames without a script', () => {
    expect(packageOf('file:///a/node_modules/x/node_modules/@scope/pkg/lib/i.js', 'f')).toBe('@scope/pkg');
    expect(packageOf('node:internal/streams/writable', 'f')).toBe('node:streams');
    expect(packageOf('node:_http_server', 'f')).toBe('node:_http_server');
    expect(packageOf('file:///w/src/server/http/errors.ts', 'f')).toBe('src/server/http');
    expect(packageOf('', 'writev', 0)).toBe('(native)');
    expect(packageOf('', 'validate3', '17')).toBe('(generated code)');
    expect(packageOf('', '(garbage collector)', 0)).toBe('(garbage collector)');
  });
});
