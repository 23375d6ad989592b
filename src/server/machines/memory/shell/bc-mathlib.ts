/**
 * bc's math library (`bc -l`): `s(x)` sine, `c(x)` cosine, `a(x)` arctangent, `l(x)` natural logarithm, `e(x)`
 * exponential and `j(n,x)` Bessel function, computed the way GNU bc's library computes them so that every digit
 * matches: the same series, the same preconditioning and the same working scales, each step truncated as bc's
 * operators truncate (see bc-num.ts). The functions take the caller's `scale` and answer at that scale.
 * @see https://www.gnu.org/software/bc/manual/html_mono/bc.html "MATH LIBRARY"
 */
import { add, cmp, digits, div, mul, num, rescale, sqrt, sub, TEN, zero, type Num } from './bc-num.ts';

const int = (k: number | bigint): Num => ({ n: BigInt(k), s: 0 });
const ONE = int(1);
const TWO = int(2);
const FIFTH = num('.2');
const neg = (a: Num): Num => ({ n: -a.n, s: a.s });
const isZero = (a: Num) => a.n === 0n;
/** A scale assignment keeps only the integer part, as `scale = 1.1*z + 2` does in bc. */
const whole = (a: Num): number => Number(rescale(a, 0).n);

/** The arctangent series x - x^3/3 + x^5/5 ..., each term truncated at `scale`, until a term is 0. */
function atanSeries(x: Num, scale: number): Num {
  let v = x;
  let n = x;
  const s = mul(neg(x), x, scale);
  for (let i = 3n; ; i += 2n) {
    n = mul(n, s, scale);
    const e = div(n, int(i), scale);
    if (isZero(e)) return v;
    v = add(v, e);
  }
}

// a(1) = pi/4 and a(.2), which the library answers at once up to scale 60, truncated from 60 digits; figured
// here at scale 80 (Machin's formula for pi/4) and cut.
const PREC = 80;
const cut60 = (a: Num) => rescale(a, 60);
const QUARTER_PI = cut60(sub(mul(int(4), atanSeries(div(ONE, int(5), PREC), PREC), PREC), atanSeries(div(ONE, int(239), PREC), PREC)));
const ATAN_FIFTH = cut60(atanSeries(FIFTH, PREC));
/** The known value cut to 25, 40 or 60 digits (the first that holds `scale`), or none above scale 60. */
const known = (v: Num, scale: number): Num | undefined => (scale <= 25 ? rescale(v, 25) : scale <= 40 ? rescale(v, 40) : scale <= 60 ? v : undefined);

/** `a(x)`: arctangent, reducing x above .2 with atan(x) = atan(.2) + atan((x-.2)/(1+x*.2)). */
export function arctan(x: Num, z: number): Num {
  const m = x.n < 0n ? int(-1) : ONE;
  if (x.n < 0n) x = neg(x);
  const fast = cmp(x, ONE) === 0 ? known(QUARTER_PI, z) : cmp(x, FIFTH) === 0 ? known(ATAN_FIFTH, z) : undefined;
  if (fast) return div(fast, m, z);
  const a = cmp(x, FIFTH) > 0 ? arctan(FIFTH, z + 5) : zero;
  const sc = z + 3;
  let f = 0n;
  while (cmp(x, FIFTH) > 0) {
    f++;
    x = div(sub(x, FIFTH), add(ONE, mul(x, FIFTH, sc)), sc);
  }
  const v = atanSeries(x, sc);
  return div(add(mul(int(f), a, z), v), m, z);
}

/** `s(x)`: sine, x first brought within ±pi/4 of 0 by whole quarter turns, then the series. */
export function sine(x: Num, z: number): Num {
  const sc = whole(add(mul(num('1.1'), int(z), z), TWO));
  let v = arctan(ONE, sc);
  const m = x.n < 0n;
  if (m) x = neg(x);
  const n = div(add(div(x, v, 0), TWO), int(4), 0);
  x = sub(x, mul(mul(int(4), n, 0), v, 0));
  if (n.n % 2n !== 0n) x = neg(x);
  const s2 = z + 2;
  v = x;
  let e = x;
  const s = mul(neg(x), x, s2);
  for (let i = 3n; ; i += 2n) {
    e = mul(e, div(s, int(i * (i - 1n)), s2), s2);
    if (isZero(e)) return div(m ? neg(v) : v, ONE, z);
    v = add(v, e);
  }
}

/** `c(x)`: cosine, as sin(x + pi/2) at 1.2 times the scale. */
export function cosine(x: Num, z: number): Num {
  const sc = whole(mul(int(z), num('1.2'), z));
  return div(sine(add(x, mul(arctan(ONE, sc), TWO, sc)), sc), ONE, z);
}

/** `e(x)`: exponential, x halved until at most 1 and the series' sum squared back, 1/e(-x) for x < 0. */
export function exponential(x: Num, z: number): Num {
  const m = x.n < 0n;
  if (m) x = neg(x);
  const n = whole(add(int(6 + z), mul(num('.44'), x, z)));
  let sc = x.s + 1;
  let f = 0;
  while (cmp(x, ONE) > 0) {
    f++;
    x = div(x, TWO, sc);
    sc++;
  }
  let v = add(ONE, x);
  let a = x;
  let d = ONE;
  for (let i = 2n; ; i++) {
    a = mul(a, x, n);
    d = mul(d, int(i), n);
    const e = div(a, d, n);
    if (isZero(e)) {
      for (; f > 0; f--) v = mul(v, v, n);
      return m ? div(ONE, v, z) : div(v, ONE, z);
    }
    v = add(v, e);
  }
}

/** `l(x)`: natural logarithm, x square-rooted into (.5, 2), then 2(a + a^3/3 + ...) with a = (x-1)/(x+1). */
export function logarithm(x: Num, z: number): Num {
  if (x.n <= 0n) return div(sub(ONE, int(TEN(z))), ONE, z);
  const sc = 6 + z;
  let f = TWO;
  const half = num('.5');
  while (cmp(x, TWO) >= 0) {
    f = mul(f, TWO, sc);
    x = sqrt(x, sc);
  }
  while (cmp(x, half) <= 0) {
    f = mul(f, TWO, sc);
    x = sqrt(x, sc);
  }
  let n = div(sub(x, ONE), add(x, ONE), sc);
  let v = n;
  const m = mul(n, n, sc);
  for (let i = 3n; ; i += 2n) {
    n = mul(n, m, sc);
    const e = div(n, int(i), sc);
    if (isZero(e)) return div(mul(f, v, sc), ONE, z);
    v = add(v, e);
  }
}

/** `j(n,x)`: Bessel function of the first kind of integer order n (n cut to an integer), by its power series. */
export function bessel(order: Num, x: Num, z: number): Num {
  let n = rescale(order, 0).n;
  let m = false;
  if (n < 0n) {
    n = -n;
    m = n % 2n === 1n;
  }
  let fact = ONE;
  for (let i = 2n; i <= n; i++) fact = mul(fact, int(i), 0);
  let sc = whole(mul(num('1.5'), int(z), 0));
  const power = (b: Num, k: bigint): Num => rescale({ n: b.n ** k, s: b.s * Number(k) }, Math.min(b.s * Number(k), Math.max(sc, b.s)));
  const f = div(div(power(x, n), power(TWO, n), sc), fact, sc);
  let v = ONE;
  let e = ONE;
  const s = div(mul(neg(x), x, sc), int(4), sc);
  sc = whole(add(mul(num('1.5'), int(z), sc), int(digits(f) - f.s)));
  for (let i = 1n; ; i++) {
    e = div(div(mul(e, s, sc), int(i), sc), int(n + i), sc);
    if (isZero(e)) return div(mul(m ? neg(f) : f, v, z), ONE, z);
    v = add(v, e);
  }
}
