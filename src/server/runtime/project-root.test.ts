import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findProjectRoot, PROJECT_ROOT, projectPath } from './project-root.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(): string {
  const dir = mkdtempSync(join(tmpdir(), 'spritzer-root-'));
  made.push(dir);
  return dir;
}

describe('project root', () => {
  it('is the checkout holding spec/openapi.yaml and package.json named spritzer-emulator', () => {
    expect(projectPath('spec/openapi.yaml')).toBe(join(PROJECT_ROOT, 'spec/openapi.yaml'));
    expect(findProjectRoot(join(PROJECT_ROOT, 'src/server/http'))).toBe(PROJECT_ROOT);
  });

  it('walks past package.json files of other packages and unreadable ones to the nearest spritzer one', () => {
    const root = tree();
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'spritzer-emulator' }));
    mkdirSync(join(root, 'node_modules/dep/lib'), { recursive: true });
    writeFileSync(join(root, 'node_modules/dep/package.json'), JSON.stringify({ name: 'dep' }));
    mkdirSync(join(root, 'node_modules/dep/lib/broken'));
    writeFileSync(join(root, 'node_modules/dep/lib/broken/package.json'), '{not json');
    expect(findProjectRoot(join(root, 'node_modules/dep/lib/broken'))).toBe(root);
  });

  it('is undefined when no spritzer package.json is above the start', () => {
    const root = tree();
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'other' }));
    expect(findProjectRoot(root)).toBeUndefined();
  });
});
