/**
 * The line comparison of GNU diff (diffutils 3.x, analyze.c and gnulib's diffseq.h), so the shell engine's `diff`
 * picks the same lines as changed where several edit scripts are equally short: lines matching nothing in the other
 * file are discarded before the search, the middle snake is found from both ends, and the changed runs are then
 * slid to GNU's boundaries. It owns only which lines changed; option parsing and output are diff-command.ts's.
 * @see https://git.savannah.gnu.org/cgit/diffutils.git/tree/src/analyze.c
 */

/** One change: `deleted` lines of the old file from `line0` replaced by `inserted` lines of the new from `line1` (0-based). */
export interface Change {
  line0: number;
  line1: number;
  deleted: number;
  inserted: number;
}

/**
 * The changes turning a file whose lines have the equivalence classes `a` into one with `b` (equal classes are equal
 * lines under the comparison's options), in order, as GNU diff's `build_script` lists them. `horizon` is the context
 * length of the output format (0 for the normal format). `bytesA`/`bytesB` class the lines by their exact bytes
 * (the same as `a`/`b` when no option makes different lines equal).
 */
export function compareLines(a: readonly number[], b: readonly number[], horizon = 0, bytesA: readonly number[] = a, bytesB: readonly number[] = b): Change[] {
  // GNU sets the identical first and last lines aside before it looks at the rest (io.c's find_identical_ends),
  // keeping `horizon` of them on each side (the context length): the rest count for nothing in the discarding
  // below, and a changed run cannot slide into them. Identical there is byte for byte (`bytesA`/`bytesB`: classes
  // of the lines as they are), whatever -b, -w or -i make equal.
  let head = 0;
  while (head < a.length && head < b.length && bytesA[head] === bytesB[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && bytesA[a.length - 1 - tail] === bytesB[b.length - 1 - tail]) tail++;
  head -= Math.min(head, horizon);
  tail -= Math.min(tail, horizon);
  return middle(a.slice(head, a.length - tail), b.slice(head, b.length - tail)).map((c) => ({ ...c, line0: c.line0 + head, line1: c.line1 + head }));
}

function middle(a: readonly number[], b: readonly number[]): Change[] {
  // changed[0] and changed[n + 1] are the sentinels GNU keeps at index -1 and n.
  const changed0 = new Uint8Array(a.length + 2);
  const changed1 = new Uint8Array(b.length + 2);
  const [u0, r0] = undiscarded(a, b, changed0);
  const [u1, r1] = undiscarded(b, a, changed1);
  new Search(u0, u1, (x) => (changed0[r0[x]! + 1] = 1), (y) => (changed1[r1[y]! + 1] = 1)).compare(0, u0.length, 0, u1.length);
  shiftBoundaries(a, changed0, changed1);
  shiftBoundaries(b, changed1, changed0);
  const changes: Change[] = [];
  let i0 = 0;
  let i1 = 0;
  while (i0 < a.length || i1 < b.length) {
    if (changed0[i0 + 1] || changed1[i1 + 1]) {
      const line0 = i0;
      const line1 = i1;
      while (changed0[i0 + 1]) i0++;
      while (changed1[i1 + 1]) i1++;
      changes.push({ line0, line1, deleted: i0 - line0, inserted: i1 - line1 });
    }
    i0++;
    i1++;
  }
  return changes;
}

/**
 * GNU's `discard_confusing_lines` for one file: a line matching no line of the other file is marked changed at
 * once and left out of the search; one matching very many is left out only inside a run of such lines. Returns the
 * classes kept and the index in the file of each.
 */
function undiscarded(own: readonly number[], other: readonly number[], changed: Uint8Array): [number[], number[]] {
  const counts = new Map<number, number>();
  for (const c of other) counts.set(c, (counts.get(c) ?? 0) + 1);
  const end = own.length;
  let many = 5;
  let tem = Math.floor(end / 64);
  while ((tem >>= 2) > 0) many *= 2;
  const discards = new Uint8Array(end);
  own.forEach((c, i) => {
    const n = counts.get(c) ?? 0;
    if (n === 0) discards[i] = 1;
    else if (n > many) discards[i] = 2;
  });
  for (let i = 0; i < end; i++) {
    if (discards[i] === 2) discards[i] = 0;
    else if (discards[i] !== 0) {
      let j = i;
      let provisional = 0;
      for (; j < end && discards[j] !== 0; j++) if (discards[j] === 2) provisional++;
      while (j > i && discards[j - 1] === 2) (discards[--j] = 0), provisional--;
      const length = j - i;
      if (provisional * 4 > length) {
        while (j > i) if (discards[--j] === 2) discards[j] = 0;
      } else {
        let minimum = 1;
        let t = length >> 2;
        while (0 < (t >>= 2)) minimum <<= 1;
        minimum++;
        let consec = 0;
        for (j = 0; j < length; j++) {
          if (discards[i + j] !== 2) consec = 0;
          else if (minimum === ++consec) j -= consec;
          else if (minimum < consec) discards[i + j] = 0;
        }
        consec = 0;
        for (j = 0; j < length; j++) {
          if (j >= 8 && discards[i + j] === 1) break;
          if (discards[i + j] === 2) (consec = 0), (discards[i + j] = 0);
          else if (discards[i + j] === 0) consec = 0;
          else consec++;
          if (consec === 3) break;
        }
        i += length - 1;
        consec = 0;
        for (j = 0; j < length; j++) {
          if (j >= 8 && discards[i - j] === 1) break;
          if (discards[i - j] === 2) (consec = 0), (discards[i - j] = 0);
          else if (discards[i - j] === 0) consec = 0;
          else consec++;
          if (consec === 3) break;
        }
      }
    }
  }
  const kept: number[] = [];
  const index: number[] = [];
  own.forEach((c, i) => {
    if (discards[i] === 0) {
      kept.push(c);
      index.push(i);
    } else changed[i + 1] = 1;
  });
  return [kept, index];
}

/** gnulib's `compareseq` and `diag` without the heuristics GNU diff uses only for large inputs. */
class Search {
  private readonly fd = new Map<number, number>();
  private readonly bd = new Map<number, number>();
  constructor(
    private readonly x: readonly number[],
    private readonly y: readonly number[],
    private readonly deleted: (x: number) => void,
    private readonly inserted: (y: number) => void,
  ) {}

  compare(xoff: number, xlim: number, yoff: number, ylim: number): void {
    const { x, y } = this;
    while (xoff < xlim && yoff < ylim && x[xoff] === y[yoff]) xoff++, yoff++;
    while (xoff < xlim && yoff < ylim && x[xlim - 1] === y[ylim - 1]) xlim--, ylim--;
    if (xoff === xlim) while (yoff < ylim) this.inserted(yoff++);
    else if (yoff === ylim) while (xoff < xlim) this.deleted(xoff++);
    else {
      const [xmid, ymid] = this.diag(xoff, xlim, yoff, ylim);
      this.compare(xoff, xmid, yoff, ymid);
      this.compare(xmid, xlim, ymid, ylim);
    }
  }

  /** The middle snake of the box: where a shortest edit script crosses it, searched from both corners at once. */
  private diag(xoff: number, xlim: number, yoff: number, ylim: number): [number, number] {
    const { x, y, fd, bd } = this;
    const get = (m: Map<number, number>, k: number, missing: number) => m.get(k) ?? missing;
    const dmin = xoff - ylim;
    const dmax = xlim - yoff;
    const fmid = xoff - yoff;
    const bmid = xlim - ylim;
    let fmin = fmid;
    let fmax = fmid;
    let bmin = bmid;
    let bmax = bmid;
    const odd = ((fmid - bmid) & 1) !== 0;
    fd.clear();
    bd.clear();
    fd.set(fmid, xoff);
    bd.set(bmid, xlim);
    for (;;) {
      if (fmin > dmin) fd.set(--fmin - 1, -1);
      else ++fmin;
      if (fmax < dmax) fd.set(++fmax + 1, -1);
      else --fmax;
      for (let d = fmax; d >= fmin; d -= 2) {
        const tlo = get(fd, d - 1, -1);
        const thi = get(fd, d + 1, -1);
        let xi = tlo < thi ? thi : tlo + 1;
        let yi = xi - d;
        while (xi < xlim && yi < ylim && x[xi] === y[yi]) xi++, yi++;
        fd.set(d, xi);
        if (odd && bmin <= d && d <= bmax && get(bd, d, Infinity) <= xi) return [xi, yi];
      }
      if (bmin > dmin) bd.set(--bmin - 1, Infinity);
      else ++bmin;
      if (bmax < dmax) bd.set(++bmax + 1, Infinity);
      else --bmax;
      for (let d = bmax; d >= bmin; d -= 2) {
        const tlo = get(bd, d - 1, Infinity);
        const thi = get(bd, d + 1, Infinity);
        let xi = tlo < thi ? tlo : thi - 1;
        let yi = xi - d;
        while (xoff < xi && yoff < yi && x[xi - 1] === y[yi - 1]) xi--, yi--;
        bd.set(d, xi);
        if (!odd && fmin <= d && d <= fmax && xi <= get(fd, d, -1)) return [xi, yi];
      }
    }
  }
}

/**
 * GNU's `shift_boundaries` for one file: each run of changed lines slides back while the line before it equals its
 * last line, then forward as far as it can, merging with neighbouring runs, and finally back to where it lines up
 * with a changed run of the other file. `changed` and `other` are 1-based (index 0 and n+1 are sentinels).
 */
function shiftBoundaries(equivs: readonly number[], changed: Uint8Array, other: Uint8Array): void {
  const c = (i: number) => changed[i + 1]!;
  const set = (i: number, v: number) => (changed[i + 1] = v);
  const o = (j: number) => other[j + 1]!;
  const iEnd = equivs.length;
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < iEnd && !c(i)) {
      while (o(j++));
      i++;
    }
    if (i === iEnd) break;
    let start = i;
    while (c(++i));
    while (o(j)) j++;
    let runlength: number;
    let corresponding: number;
    do {
      runlength = i - start;
      while (start && equivs[start - 1] === equivs[i - 1]) {
        set(--start, 1);
        set(--i, 0);
        while (c(start - 1)) start--;
        while (o(--j));
      }
      corresponding = o(j - 1) ? i : iEnd;
      while (i !== iEnd && equivs[start] === equivs[i]) {
        set(start++, 0);
        set(i++, 1);
        while (c(i)) i++;
        while (o(++j)) corresponding = i;
      }
    } while (runlength !== i - start);
    while (corresponding < i) {
      set(--start, 1);
      set(--i, 0);
      while (o(--j));
    }
  }
}
