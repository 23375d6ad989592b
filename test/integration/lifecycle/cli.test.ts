/**
 * The `spritzer` command as a user meets it: `--help` lists every flag with its env name and default, the
 * README's flag table says the same, and the default address agrees with the spec's `servers`.
 * @see README.md (flag table), spec/openapi.yaml `servers`
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const help = execFileSync(process.execPath, ['bin/spritzer.mjs', '--help'], { cwd: root, encoding: 'utf8' });
const readme = readFileSync(`${root}/README.md`, 'utf8');

/** `--flag` → its option block in --help (commander wraps long descriptions over several lines). */
function helpOptions(): Map<string, string> {
  const blocks = new Map<string, string>();
  let current: string | undefined;
  for (const line of help.split('\n')) {
    const m = /^ {2}(?:-\w, )?(--[\w-]+)/.exec(line);
    if (m) {
      current = m[1];
      blocks.set(current, line);
    } else if (current && /^ {10,}/.test(line)) {
      blocks.set(current, `${blocks.get(current)} ${line.trim()}`);
    } else current = undefined;
  }
  blocks.delete('--help');
  return blocks;
}

/** README flag table rows: `| \`--flag\` | \`ENV\` | default | meaning |`. */
function readmeFlags(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const m of readme.matchAll(/^\| `(--[\w-]+)` \| `?([A-Z_=a-z]+)`? \|/gm)) rows.set(m[1], m[2]);
  return rows;
}

describe('spritzer --help and the README', () => {
  it('--help names the env variable of every flag that has one, and the README lists the same flags', () => {
    const options = helpOptions();
    const table = readmeFlags();
    expect([...options.keys()].sort()).toEqual([...table.keys()].sort());
    for (const [flag, env] of table) {
      if (!env.startsWith('SPRITZER_')) continue; // e.g. --no-validate-responses, whose README row names NODE_ENV
      expect(options.get(flag), flag).toContain(`env: ${env}`);
    }
  });

  it('the default address in --help, the README and the spec agree', () => {
    expect(helpOptions().get('--addr')).toContain('default: "127.0.0.1:4290"');
    expect(readme).toContain('http://127.0.0.1:4290');
    const spec = parse(readFileSync(`${root}/spec/openapi.yaml`, 'utf8')) as { servers: Array<{ url: string }> };
    expect(spec.servers[0].url).toBe('http://127.0.0.1:4290');
  });
});
