import { readFileSync } from 'node:fs';
import { engineBash } from './host-bash.ts';
const script = readFileSync(process.argv[2]!, 'utf8');
const r = await engineBash(script);
process.stdout.write(r.stdout); process.stderr.write(r.stderr); console.log('[exit]', r.exit);
