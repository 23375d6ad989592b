/**
 * The output formats of GNU diff (diffutils 3.x) over a change list (diff-engine.ts): normal (`2c2`, `< b`, `---`,
 * `> c`), unified (`-u`, `-U N`), context (`-c`, `-C N`) and ed (`-e`), with GNU's range spelling, hunk grouping
 * and `\ No newline at end of file` marks. Lines are byte strings (one char per byte) without their newline.
 * @see https://www.gnu.org/software/diffutils/manual/diffutils.html#Output-Formats
 */
import type { Change } from './diff-engine.ts';

/** One file's side of a comparison: its lines, and whether its last line lacks the newline. */
export interface DiffSide {
  lines: string[];
  noEol: boolean;
}

export type DiffStyle = { kind: 'normal' } | { kind: 'ed' } | { kind: 'unified' | 'context'; context: number };

const NO_EOL = '\\ No newline at end of file\n';

/** A line as `flag` + line (+ GNU's mark when it is the last line of a file that lacks the final newline). */
const line = (flag: string, side: DiffSide, i: number) => `${flag}${side.lines[i]}\n${side.noEol && i === side.lines.length - 1 ? NO_EOL : ''}`;

/** `a,b` (1-based, inclusive) or `b` when the range holds one line or none, as GNU's `print_number_range`. */
function range(first: number, last: number): string {
  const a = first + 1;
  const b = last + 1;
  return b > a ? `${a},${b}` : `${b}`;
}

/** GNU's unified range: `start,count`, `start` for one line, `before,0` for none. */
function unifiedRange(first: number, last: number): string {
  const a = first + 1;
  const b = last + 1;
  if (b <= a) return b < a ? `${b},0` : `${b}`;
  return `${a},${b - a + 1}`;
}

/** The change letter GNU prints between the ranges of a normal or ed hunk. */
const letter = (c: Change) => (c.deleted && c.inserted ? 'c' : c.deleted ? 'd' : 'a');

/** Normal format: every change on its own, old lines as `< `, new as `> `. */
function normal(changes: Change[], a: DiffSide, b: DiffSide): string {
  let out = '';
  for (const c of changes) {
    out += `${range(c.line0, c.line0 + c.deleted - 1)}${letter(c)}${range(c.line1, c.line1 + c.inserted - 1)}\n`;
    for (let i = c.line0; i < c.line0 + c.deleted; i++) out += line('< ', a, i);
    if (c.deleted && c.inserted) out += '---\n';
    for (let j = c.line1; j < c.line1 + c.inserted; j++) out += line('> ', b, j);
  }
  return out;
}

/** Ed format: the changes last first, each an ed command and the new lines ended by `.`. */
function ed(changes: Change[], b: DiffSide): string {
  let out = '';
  for (const c of [...changes].reverse()) {
    out += `${range(c.line0, c.line0 + c.deleted - 1)}${letter(c)}\n`;
    if (!c.inserted) continue;
    for (let j = c.line1; j < c.line1 + c.inserted; j++) out += `${b.lines[j] === '.' ? '..' : b.lines[j]}\n`;
    out += '.\n';
  }
  return out;
}

/** The changes grouped into hunks: GNU joins two changes whose gap is at most twice the context. */
function hunks(changes: Change[], context: number): Change[][] {
  const groups: Change[][] = [];
  for (const c of changes) {
    const last = groups[groups.length - 1];
    const prev = last?.[last.length - 1];
    if (prev && c.line0 - (prev.line0 + prev.deleted) < 2 * context + 1) last!.push(c);
    else groups.push([c]);
  }
  return groups;
}

/** The lines a hunk shows of each file: its changes widened by the context, within the files. */
function extent(h: Change[], context: number, a: DiffSide, b: DiffSide) {
  const first = h[0]!;
  const last = h[h.length - 1]!;
  return {
    first0: Math.max(0, first.line0 - context),
    last0: Math.min(a.lines.length - 1, last.line0 + last.deleted - 1 + context),
    first1: Math.max(0, first.line1 - context),
    last1: Math.min(b.lines.length - 1, last.line1 + last.inserted - 1 + context),
  };
}

/** Unified hunks: `@@ -r +r @@`, context lines with ` `, each change's old lines `-` then its new lines `+`. */
function unified(changes: Change[], a: DiffSide, b: DiffSide, context: number): string {
  let out = '';
  for (const h of hunks(changes, context)) {
    const { first0, last0, first1, last1 } = extent(h, context, a, b);
    out += `@@ -${unifiedRange(first0, last0)} +${unifiedRange(first1, last1)} @@\n`;
    let i = first0;
    let k = 0;
    while (i <= last0 || k < h.length) {
      const next = h[k];
      if (!next || i < next.line0) out += line(' ', a, i++);
      else {
        for (let n = 0; n < next.deleted; n++) out += line('-', a, i++);
        for (let n = 0; n < next.inserted; n++) out += line('+', b, next.line1 + n);
        k++;
      }
    }
  }
  return out;
}

/** One side of a context hunk: each line `  `, or `! ` (changed), `- `/`+ ` (only deleted/inserted). */
function contextSide(h: Change[], side: DiffSide, first: number, last: number, old: boolean): string {
  let out = '';
  let k = 0;
  for (let i = first; i <= last; i++) {
    while (k < h.length && (old ? h[k]!.line0 + h[k]!.deleted : h[k]!.line1 + h[k]!.inserted) <= i) k++;
    const c = h[k];
    let flag = '  ';
    if (c && (old ? c.line0 : c.line1) <= i) flag = (old ? c.inserted : c.deleted) > 0 ? '! ' : old ? '- ' : '+ ';
    out += line(flag, side, i);
  }
  return out;
}

/** Context hunks: `***************`, the old side under `*** r ****`, the new under `--- r ----`. */
function contextFormat(changes: Change[], a: DiffSide, b: DiffSide, context: number): string {
  let out = '';
  for (const h of hunks(changes, context)) {
    const { first0, last0, first1, last1 } = extent(h, context, a, b);
    out += `***************\n*** ${range(first0, last0)} ****\n`;
    if (h.some((c) => c.deleted)) out += contextSide(h, a, first0, last0, true);
    out += `--- ${range(first1, last1)} ----\n`;
    if (h.some((c) => c.inserted)) out += contextSide(h, b, first1, last1, false);
  }
  return out;
}

/** The hunks of `changes` in `style` (headers of unified and context output are the caller's). */
export function formatChanges(style: DiffStyle, changes: Change[], a: DiffSide, b: DiffSide): string {
  switch (style.kind) {
    case 'normal':
      return normal(changes, a, b);
    case 'ed':
      return ed(changes, b);
    case 'unified':
      return unified(changes, a, b, style.context);
    case 'context':
      return contextFormat(changes, a, b, style.context);
  }
}
