/**
 * What an unprivileged host user (`nobody`, 65534) can read of a spritzer data dir: every entry root sees there is
 * tried as that user (a directory listed, a file's first byte read), and the small files it can read are searched
 * for a secret. Test set-up only; needs root (to become another user). Each probe is one `sh` that ends before the
 * call returns (spawnSync).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, lstatSync } from 'node:fs';
import { join } from 'node:path';

/** The unprivileged host user the probes run as. */
export const NOBODY = 65534;

/**
 * Every entry at or below `dir` as root sees it, `dir` first, down to `depth` levels (a data dir holds whole sprite
 * layers: the top of each is enough). Symlinks are listed, not followed.
 */
export function entriesUnder(dir: string, depth = 4): string[] {
  const out = [dir];
  if (depth > 0 && lstatSync(dir).isDirectory()) {
    for (const name of readdirSync(dir).sort()) out.push(...entriesUnder(join(dir, name), depth - 1));
  }
  return out;
}

/**
 * Tries each of `paths` as NOBODY: resolves with those it could read (a directory it could list, a file whose first
 * byte it could read), and the names of the files among them whose first MiB holds `secret`.
 */
export function readableByNobody(paths: string[], secret: string): { readable: string[]; leaking: string[] } {
  const script = `s=$1; shift
for p; do
  if [ -d "$p" ] && [ ! -L "$p" ]; then ls -a -- "$p" >/dev/null 2>&1 && echo "R $p"
  elif head -c 1 -- "$p" >/dev/null 2>&1; then echo "R $p"; head -c 1048576 -- "$p" | grep -a -q -F -- "$s" && echo "S $p"
  fi
done; exit 0`;
  const r = spawnSync('sh', ['-c', script, 'sh', secret, ...paths], { uid: NOBODY, gid: NOBODY, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`probe as nobody failed (${r.status}): ${r.stderr}`);
  const lines = r.stdout.split('\n');
  return { readable: lines.filter((l) => l.startsWith('R ')).map((l) => l.slice(2)), leaking: lines.filter((l) => l.startsWith('S ')).map((l) => l.slice(2)) };
}
