/**
 * `sdiff` without `-o`: GNU sdiff then runs `diff -y` with its own options spelled as diff's (sdiff.c), so it is that
 * here — `-w N` is diff's `-W N` (the width), `-W` diff's `-w` (ignore all white space), `-l` `--left-column`,
 * `-s` `--suppress-common-lines`, `-t` `--expand-tabs`; `-i -b -B -a -E -Z -I RE -d -H` are the same letters.
 * `-o FILE` (the interactive merge) refuses loudly.
 * @see https://www.gnu.org/software/diffutils/manual/html_node/Invoking-sdiff.html
 */
import type { ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { walkArgs } from './text-input.ts';

const LONG: Record<string, string> = {
  '--width': '-W', '--ignore-all-space': '-w', '--left-column': '--left-column', '--suppress-common-lines': '--suppress-common-lines',
  '--expand-tabs': '--expand-tabs', '--ignore-case': '-i', '--ignore-space-change': '-b', '--ignore-blank-lines': '-B', '--text': '-a',
  '--strip-trailing-cr': '--strip-trailing-cr', '--minimal': '-d', '--speed-large-files': '-H',
};
const SHORT: Record<string, string> = { W: '-w', l: '--left-column', s: '--suppress-common-lines', t: '--expand-tabs', i: '-i', b: '-b', B: '-B', a: '-a', E: '-E', Z: '-Z', d: '-d', H: '-H' };

/**
 * sdiff's argv as the `diff -y` argv GNU sdiff runs, or the refusal of an option it cannot run (`-o`, unknown ones).
 * @returns diff's arguments (options first, then `--` and the operands)
 */
export function sdiffAsDiff(args: string[]): string[] | ExecResult {
  const out = ['-y'];
  const walked = walkArgs<ExecResult>(args, (a, next) => {
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq);
      const mapped = LONG[name];
      if (!mapped) return unsupported('sdiff', a);
      if (name === '--width') {
        const v = eq < 0 ? next() : a.slice(eq + 1);
        if (v === undefined) return unsupported('sdiff', a);
        out.push(`-W${v}`);
      } else out.push(mapped);
      return undefined;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (c === 'w' || c === 'I') {
        const v = j + 1 < a.length ? a.slice(j + 1) : next();
        if (v === undefined) return unsupported('sdiff', `-${c}`);
        if (c === 'w') out.push(`-W${v}`);
        else out.push('-I', v);
        return undefined;
      }
      const mapped = SHORT[c];
      if (!mapped) return unsupported('sdiff', `-${c}`);
      out.push(mapped);
    }
    return undefined;
  });
  if ('failed' in walked) return walked.failed;
  return [...out, '--', ...walked.operands];
}
