/**
 * `shuf` as GNU coreutils runs it: a random permutation of the input lines, of `-e` words or of the `-i LO-HI`
 * range, at most `-n` of them (`-r`: drawn with repetition), `-z` NUL-ended lines, `-o FILE`.
 * @deviation The order is random, as GNU's, but never GNU's own: with `--random-source=FILE` the same file gives the
 * same order on every run (seeded from its bytes), not the order GNU's generator draws from those bytes. `-r`
 * without `-n` stops after 100000 lines (GNU's never ends).
 * @see https://www.gnu.org/software/coreutils/manual/html_node/shuf-invocation.html
 */
import { createHash, randomBytes } from 'node:crypto';
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { deliver, readOperand, walkArgs, type InputCtx } from './text-input.ts';

const TRY = "Try 'shuf --help' for more information.\n";

interface Options {
  echo: boolean;
  range: string | undefined;
  count: string | undefined;
  repeat: boolean;
  zero: boolean;
  output: string | undefined;
  source: string | undefined;
}

/** A generator of uniform integers below `n`, from a 32-byte seed (xorshift128+ over its words). */
function generator(seed: Buffer): (n: number) => number {
  let s0 = seed.readBigUInt64LE(0) | 1n;
  let s1 = seed.readBigUInt64LE(8) | 2n;
  const mask = (1n << 64n) - 1n;
  return (n) => {
    let x = s0;
    const y = s1;
    s0 = y;
    x = (x ^ (x << 23n)) & mask;
    s1 = x ^ y ^ (x >> 17n) ^ (y >> 26n);
    return Number(((s1 + y) & mask) % BigInt(n));
  };
}

async function shuf(args: string[], ctx: InputCtx): Promise<ExecResult> {
  const o: Options = { echo: false, range: undefined, count: undefined, repeat: false, zero: false, output: undefined, source: undefined };
  const walked = walkArgs(args, (a, next) => {
    if (a.startsWith('--')) {
      const [name, value] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      if (name === '--echo') o.echo = true;
      else if (name === '--repeat') o.repeat = true;
      else if (name === '--zero-terminated') o.zero = true;
      else if (name === '--input-range') o.range = value ?? next();
      else if (name === '--head-count') o.count = value ?? next();
      else if (name === '--output') o.output = value ?? next();
      else if (name === '--random-source') o.source = value ?? next();
      else return unsupported('shuf', a);
      return undefined;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (c === 'i' || c === 'n' || c === 'o') {
        const v = j + 1 < a.length ? a.slice(j + 1) : next();
        if (c === 'i') o.range = v;
        else if (c === 'n') o.count = v;
        else o.output = v;
        return undefined;
      }
      if (c === 'e') o.echo = true;
      else if (c === 'r') o.repeat = true;
      else if (c === 'z') o.zero = true;
      else return unsupported('shuf', `-${c}`);
    }
    return undefined;
  });
  if ('failed' in walked) return walked.failed;
  const names = walked.operands;
  const fail = (text: string, usage = false): ExecResult => ({ stdout: '', stderr: `shuf: ${text}\n${usage ? TRY : ''}`, exitCode: 1 });
  if (o.echo && o.range !== undefined) return fail('cannot combine -e and -i options', true);
  let limit = Infinity;
  if (o.count !== undefined) {
    if (!/^\d+$/.test(o.count)) return fail(`invalid line count: ‘${o.count}’`);
    limit = Number(o.count);
  }
  const end = o.zero ? '\0' : '\n';
  let items: string[];
  if (o.echo) items = names;
  else if (o.range !== undefined) {
    if (names.length > 0) return fail(`extra operand ‘${names[0]}’`, true);
    const m = /^(\d+)-(\d+)$/.exec(o.range);
    if (!m || Number(m[2]) + 1 < Number(m[1])) return fail(`invalid input range: ‘${o.range}’`);
    items = [];
    for (let i = Number(m[1]); i <= Number(m[2]); i++) items.push(String(i));
  } else {
    if (names.length > 1) return fail(`extra operand ‘${names[1]}’`, true);
    const input = await readOperand(ctx, names[0] ?? '-');
    if ('error' in input) return fail(`${names[0]}: ${input.error}`);
    const text = input.bytes;
    items = text === '' ? [] : (text.endsWith(end) ? text.slice(0, -1) : text).split(end);
  }
  let seed = randomBytes(32);
  if (o.source !== undefined) {
    const src = await readOperand(ctx, o.source);
    if ('error' in src) return fail(`${o.source}: ${src.error}`);
    seed = createHash('sha256').update(Buffer.from(src.bytes, 'latin1')).digest();
  }
  const below = generator(seed);
  const picked: string[] = [];
  if (o.repeat) {
    if (items.length === 0 && limit > 0) return fail('no lines to repeat');
    // Without -n, GNU repeats for ever; a sprite's script would pipe that into head, so a large batch stands in.
    for (let i = 0; i < Math.min(limit, 100_000); i++) picked.push(items[below(items.length)]!);
  } else {
    const pool = [...items];
    for (let i = pool.length - 1; i > 0; i--) {
      const j = below(i + 1);
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    }
    picked.push(...pool.slice(0, Math.min(limit, pool.length)));
  }
  return deliver(ctx, picked.map((l) => l + end).join(''), o.output, (why) => fail(`${o.output}: ${why}`));
}

/** `shuf` for just-bash's `customCommands`. */
export function shufCommands(): CustomCommand[] {
  return [defineCommand('shuf', (args, ctx) => shuf(args, ctx))];
}
