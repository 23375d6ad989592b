import { describe, expect, it, onTestFinished } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { testingDeclarations } from './build-types.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const source = readFileSync(new URL('../src/testing/index.ts', import.meta.url), 'utf8');

/** Type errors of `code` compiled strictly (nodenext) in a project with the package installed as it ships. */
function consumerErrors(code: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'spritzer-types-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const installed = join(dir, 'node_modules', pkg.name);
  mkdirSync(join(installed, 'dist/testing'), { recursive: true });
  writeFileSync(join(installed, 'package.json'), JSON.stringify({ name: pkg.name, type: pkg.type, exports: pkg.exports }));
  writeFileSync(join(installed, 'dist/testing/index.d.ts'), testingDeclarations(source));
  writeFileSync(join(installed, 'dist/testing/index.js'), 'export {};\n');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module' }));
  writeFileSync(join(dir, 'main.ts'), code);
  const program = ts.createProgram([join(dir, 'main.ts')], {
    strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('the published declarations of spritzer-emulator/testing', () => {
  it('type a strict NodeNext project that imports the entry, and catch a wrong option', () => {
    const use = `import { startSpritzer, type RunningSpritzer } from '${pkg.name}/testing';\n`;
    expect(consumerErrors(`${use}const s: RunningSpritzer = await startSpritzer({ engine: 'sandbox', token: 't' });\nconst u: string = s.env.SPRITES_BASE_URL;\nawait s.stop();\nexport { u };\n`)).toEqual([]);
    const wrong = consumerErrors(`${use}await startSpritzer({ engine: 'firecracker' });\nexport {};\n`);
    expect(wrong.join('\n')).toMatch(/"firecracker"/);
  }, 120_000);

  it('stand alone: no import of the server modules, whose declarations the package does not ship', () => {
    expect(testingDeclarations(source)).not.toMatch(/from ['"]\./);
    expect(() => testingDeclarations(`import { x } from './x.ts';\nexport const y: typeof x = x;\n`)).toThrow(/declarations import \.\/x\.ts/);
  });
});
