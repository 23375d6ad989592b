#!/usr/bin/env node
// Entry point for the `spritzer` command: runs src/server/main.ts through tsx's loader.
import { register } from 'tsx/esm/api';
register();
await import('../src/server/main.ts');
