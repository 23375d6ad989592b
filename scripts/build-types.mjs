// Part of `npm run build`: the declarations of the package's public entry, `spritzer-emulator/testing`
// (dist/testing/index.d.ts, named by package.json "exports"), so that a TypeScript project importing it gets its types.
// The entry's exported types are self-contained (no import of the server's modules survives in them), so its
// declarations are made from that one file with TypeScript's isolated declaration emit; a relative import left in
// the output would point at files the package does not ship with declarations, and fails the build.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import ts from 'typescript';

/**
 * The declaration text of `src/testing/index.ts` (`source`: its text). Throws when TypeScript reports a
 * diagnostic (an export whose type it cannot tell without the rest of the program) or when the declarations
 * import a relative module.
 */
export function testingDeclarations(source) {
  const out = ts.transpileDeclaration(source, {
    fileName: 'index.ts',
    compilerOptions: { declaration: true, isolatedDeclarations: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext },
    reportDiagnostics: true,
  });
  const problems = (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  if (problems.length > 0) throw new Error(`build-types: src/testing/index.ts: ${problems.join('; ')}`);
  const relative = [...out.outputText.matchAll(/from ['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  if (relative.length > 0) throw new Error(`build-types: the declarations import ${relative.join(', ')}, which the package ships without types`);
  return out.outputText;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = new URL('..', import.meta.url);
  mkdirSync(new URL('dist/testing/', root), { recursive: true });
  writeFileSync(new URL('dist/testing/index.d.ts', root), testingDeclarations(readFileSync(new URL('src/testing/index.ts', root), 'utf8')));
}
