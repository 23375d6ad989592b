/**
 * `npm run build:agent`: bundles the in-sprite agent into `dist/agent/agent.mjs` (or the path given as the first
 * argument). The build itself lives in `src/server/machines/agent/bundle.ts`; this is only its command line.
 */
import { resolve } from 'node:path';
import { buildAgent } from '../src/server/machines/agent/bundle.ts';

const out = await buildAgent(process.argv[2] ? resolve(process.argv[2]) : undefined);
process.stdout.write(`built ${out}\n`);
