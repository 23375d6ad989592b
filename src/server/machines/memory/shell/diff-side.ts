/**
 * GNU diff's side-by-side format (`-y`, `--side-by-side`, diffutils 3.x side.c) over a change list
 * (diff-engine.ts): each line pair in two columns of `-W`/`--width` (default 130) with the gutter mark between them
 * (` ` same, `|` changed, `<` only left, `>` only right, `(` a common line under `--left-column`, `\` and `/` for a
 * changed pair of which one side lacks its final newline), `--suppress-common-lines`, and GNU's column arithmetic
 * (tab stops of 8 between the columns, each half cut at its width). Lines are byte strings, one char per byte; a UTF-8 character takes its display columns.
 * @see https://www.gnu.org/software/diffutils/manual/diffutils.html#Side-by-Side
 */
import { charWidth } from './char-width.ts';
import type { Change } from './diff-engine.ts';
import type { DiffSide } from './diff-format.ts';

/** The side-by-side options: the total width, and what becomes of the common lines. */
export interface SideBySide {
  width: number;
  suppressCommon: boolean;
  leftColumn: boolean;
}

const TAB = 8;
/** GNU's GUTTER_WIDTH_MINIMUM: the fewest columns the gutter takes. */
const GUTTER = 3;

/** The half width and the right column's offset for a total width, as diff.c computes them (tabs not expanded). */
function columns(width: number): { half: number; offset: number } {
  const off = Math.floor((width + TAB + GUTTER) / (2 * TAB)) * TAB;
  const half = Math.max(0, Math.min(off - GUTTER, width - off));
  return { half, offset: half ? off : width };
}

/** Tabs then spaces from column `from` to `to` (side.c's tab_from_to); returns the text. */
function tabTo(from: number, to: number): string {
  let out = '';
  for (let tab = from + TAB - (from % TAB); tab <= to; tab += TAB) {
    out += '\t';
    from = tab;
  }
  return out + ' '.repeat(Math.max(0, to - from));
}

/** Byte length of the UTF-8 sequence starting with byte `b` (1 for ASCII and stray bytes). */
const seqLength = (b: number): number => (b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 1);

/**
 * A line cut to `bound` columns as side.c's print_half_line writes it: a tab kept while it fits, `\r` back to
 * `indent`, `\b` one column back, other control characters without width. Returns the text and its end column.
 */
function halfLine(text: string, indent: number, bound: number): { out: string; col: number } {
  let out = '';
  let inPos = 0;
  let outPos = 0;
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    const code = c.charCodeAt(0);
    if (c === '\t') {
      const stop = outPos + TAB - (inPos % TAB);
      if (inPos === outPos && stop < bound) {
        outPos = stop;
        out += c;
      }
      inPos += TAB - (inPos % TAB);
      i++;
    } else if (c === '\r') {
      out += c + tabTo(0, indent);
      inPos = outPos = 0;
      i++;
    } else if (c === '\b') {
      if (inPos !== 0 && --inPos < bound) {
        if (outPos <= inPos) {
          out += ' '.repeat(inPos - outPos);
          outPos = inPos;
        } else {
          outPos = inPos;
          out += c;
        }
      }
      i++;
    } else if (code < 0x20 || code === 0x7f) {
      if (inPos < bound) out += c;
      i++;
    } else {
      const n = code >= 0x80 ? seqLength(code) : 1;
      const ok = n === 1 || [...text.slice(i + 1, i + n)].every((x) => (x.charCodeAt(0) & 0xc0) === 0x80);
      const len = ok ? n : 1;
      // A character takes its display columns (a wide CJK one two) and is written only when all of them fit.
      const width = len > 1 ? charWidth(Buffer.from(text.slice(i, i + len), 'latin1').toString('utf8').codePointAt(0)!) : 1;
      if (inPos + width <= bound) {
        outPos = inPos + width;
        out += text.slice(i, i + len);
      }
      inPos += width;
      i += len;
    }
  }
  return { out, col: outPos };
}

/** One output row (side.c's print_1sdiff_line): the left line or none, the gutter mark, the right line or none. */
function row(o: SideBySide, left: { side: DiffSide; i: number } | null, sep: string, right: { side: DiffSide; i: number } | null): string {
  const { half, offset } = columns(o.width);
  const hasEol = (x: { side: DiffSide; i: number }) => !(x.side.noEol && x.i === x.side.lines.length - 1);
  let out = '';
  let col = 0;
  let newline = false;
  if (left) {
    newline = hasEol(left);
    const h = halfLine(left.side.lines[left.i]!, 0, half);
    out += h.out;
    col = h.col;
  }
  if (sep !== ' ') {
    const mid = Math.floor((half + offset - 1) / 2);
    out += tabTo(col, mid);
    col = mid + 1;
    if (sep === '|' && right && newline !== hasEol(right)) sep = newline ? '/' : '\\';
    out += sep;
  }
  if (right) {
    newline ||= hasEol(right);
    const text = right.side.lines[right.i]!;
    if (text !== '') {
      out += tabTo(col, offset);
      out += halfLine(text, offset, half).out;
    }
  }
  return newline ? `${out}\n` : out;
}

/** The whole comparison of `a` and `b` side by side, common lines included unless suppressed. */
export function sideBySide(o: SideBySide, changes: Change[], a: DiffSide, b: DiffSide): string {
  let out = '';
  let next0 = 0;
  let next1 = 0;
  const common = (limit0: number, limit1: number) => {
    if (!o.suppressCommon) {
      for (; next0 < limit0 && next1 < limit1; next0++, next1++) {
        out += o.leftColumn ? row(o, { side: a, i: next0 }, '(', null) : row(o, { side: a, i: next0 }, ' ', { side: b, i: next1 });
      }
    }
    next0 = limit0;
    next1 = limit1;
  };
  for (const ch of changes) {
    common(ch.line0, ch.line1);
    const pairs = Math.min(ch.deleted, ch.inserted);
    for (let k = 0; k < pairs; k++) out += row(o, { side: a, i: ch.line0 + k }, '|', { side: b, i: ch.line1 + k });
    for (let k = pairs; k < ch.inserted; k++) out += row(o, null, '>', { side: b, i: ch.line1 + k });
    for (let k = pairs; k < ch.deleted; k++) out += row(o, { side: a, i: ch.line0 + k }, '<', null);
    next0 = ch.line0 + ch.deleted;
    next1 = ch.line1 + ch.inserted;
  }
  common(a.lines.length, b.lines.length);
  return out;
}
