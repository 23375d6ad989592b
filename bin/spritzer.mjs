#!/usr/bin/env node
// Entry point for the `spritzer` command and `npm start`: runs the built server (dist/server/main.js), building it
// first when dist/ is missing or older than src/ (bin/ensure-built.mjs), and patching just-bash first when its
// patches are missing or newer than its copy (bin/ensure-patched.mjs). No TypeScript loader at run time.
import { ensureBuilt } from './ensure-built.mjs';
import { ensurePatched } from './ensure-patched.mjs';
ensurePatched();
ensureBuilt();
await import('../dist/server/main.js');
