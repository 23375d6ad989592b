/**
 * `npm run build:ui`: bundles the inspector into `dist/ui/` (or the directory given as the first argument). The build
 * itself lives in `src/server/inspector/bundle.ts`; the server also runs it on demand when dist/ui is stale.
 */
import { resolve } from 'node:path';
import { buildInspector } from '../src/server/inspector/bundle.ts';

const out = await buildInspector(process.argv[2] ? resolve(process.argv[2]) : undefined);
process.stdout.write(`built ${out}\n`);
