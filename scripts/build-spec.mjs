// Part of `npm run build`: writes spec/openapi.yaml as JSON to dist/openapi.json, which the built server reads instead
// of parsing YAML at start (src/server/http/spec.ts). Same document, no other change.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

const root = new URL('..', import.meta.url);
mkdirSync(new URL('dist/', root), { recursive: true });
const doc = parse(readFileSync(new URL('spec/openapi.yaml', root), 'utf8'));
writeFileSync(new URL('dist/openapi.json', root), JSON.stringify(doc));
