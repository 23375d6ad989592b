/**
 * `factor` as GNU coreutils prints it: `N: p p q` for each operand (or each word of stdin), primes ascending,
 * numbers up to 2^64 and beyond (trial division, then Pollard's rho with Miller–Rabin over BigInt).
 * @see https://www.gnu.org/software/coreutils/manual/html_node/factor-invocation.html
 */
import { firstRejection } from './gnu-options.ts';
import { defineCommand, latin1FromBytes, type CustomCommand, type ExecResult } from 'just-bash';

const modpow = (b: bigint, e: bigint, m: bigint): bigint => {
  let r = 1n;
  b %= m;
  for (; e > 0n; e >>= 1n, b = (b * b) % m) if (e & 1n) r = (r * b) % m;
  return r;
};

/** Miller–Rabin with the bases that decide every n below 3.3e24. */
function isPrime(n: bigint): boolean {
  if (n < 2n) return false;
  for (const p of [2n, 3n, 5n, 7n, 11n, 13n, 17n, 19n, 23n, 29n, 31n, 37n, 41n]) {
    if (n === p) return true;
    if (n % p === 0n) return false;
  }
  let d = n - 1n;
  let s = 0;
  while ((d & 1n) === 0n) (d >>= 1n, s++);
  outer: for (const a of [2n, 3n, 5n, 7n, 11n, 13n, 17n, 19n, 23n, 29n, 31n, 37n, 41n]) {
    let x = modpow(a, d, n);
    if (x === 1n || x === n - 1n) continue;
    for (let r = 1; r < s; r++) {
      x = (x * x) % n;
      if (x === n - 1n) continue outer;
    }
    return false;
  }
  return true;
}

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));

/** A non-trivial factor of composite `n` (Pollard's rho). */
function rho(n: bigint): bigint {
  for (let c = 1n; ; c++) {
    let x = 2n;
    let y = 2n;
    let d = 1n;
    while (d === 1n) {
      x = (x * x + c) % n;
      y = (y * y + c) % n;
      y = (y * y + c) % n;
      d = gcd(x > y ? x - y : y - x, n);
    }
    if (d !== n) return d;
  }
}

/** The prime factors of `n`, ascending. */
export function primeFactors(n: bigint): bigint[] {
  const out: bigint[] = [];
  if (n < 2n) return out;
  for (const p of [2n, 3n, 5n]) while (n % p === 0n) (out.push(p), (n /= p));
  for (let p = 7n; p * p <= n && p < 100000n; p += 2n) while (n % p === 0n) (out.push(p), (n /= p));
  const stack = n > 1n ? [n] : [];
  while (stack.length > 0) {
    const m = stack.pop()!;
    if (isPrime(m)) out.push(m);
    else {
      const d = rho(m);
      stack.push(d, m / d);
    }
  }
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

async function factor(args: string[], stdin: () => string): Promise<ExecResult> {
  // getopt reads every word before `--` that starts with `-`: `factor -h 72` is an unknown option, not a number.
  const typo = firstRejection('factor', args);
  if (typo) return typo;
  const words = args.length > 0 ? args.filter((a) => a !== '--') : stdin().split(/\s+/).filter((w) => w !== '');
  let out = '';
  let err = '';
  for (const w of words) {
    if (!/^\+?\d+$/.test(w)) {
      err += `factor: ‘${w}’ is not a valid positive integer\n`;
      continue;
    }
    const n = BigInt(w.replace(/^\+/, ''));
    out += `${n}:${primeFactors(n).map((p) => ` ${p}`).join('')}\n`;
  }
  return { stdout: out, stderr: err, exitCode: err ? 1 : 0 };
}

/** `factor` for just-bash's `customCommands`. */
export function factorCommands(): CustomCommand[] {
  return [defineCommand('factor', (args, ctx) => factor(args, () => latin1FromBytes(ctx.stdin)))];
}
