// Builds the publishable @spritzer/sdk into dist/: compiles src/sdk (and the src/protocol modules it imports)
// with the repo's TypeScript, then copies generated/openapi.d.ts, which tsc does not emit, beside the output
// so that the declarations' relative imports resolve. Run by `npm pack` (prepack); dist/ is not committed.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const tsc = createRequire(join(repo, 'package.json')).resolve('typescript/bin/tsc');
rmSync(join(here, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.build.json')], { stdio: 'inherit' });
mkdirSync(join(here, 'dist', 'generated'), { recursive: true });
cpSync(join(repo, 'generated', 'openapi.d.ts'), join(here, 'dist', 'generated', 'openapi.d.ts'));
