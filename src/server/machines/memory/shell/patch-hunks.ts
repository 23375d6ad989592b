/**
 * The hunks of a unified or normal diff as GNU patch reads them, and where each fits a file: patch-command.ts applies
 * them. A hunk is located as GNU's locate_hunk does, with fuzz (outer context lines left unchecked).
 * @see https://www.gnu.org/software/diffutils/manual/html_node/Invoking-patch.html
 */

/** One hunk: where it applies, its old and new lines (each with its `\n`), and its context. */
export interface Hunk {
  /** 1-based first old line (the line after which to insert when `old` is empty). */
  at: number;
  old: string[];
  new: string[];
  /** The hunk as it appeared, for a reject file. */
  text: string;
  /** Its leading and trailing context lines (GNU's prefix and suffix context). */
  pre: number;
  post: number;
  /** 1-based first new line (where the hunk sits in the patched file). */
  newAt: number;
  /** Its lines in order, marked ' ', '-' or '+', for a reversed reject. */
  ops: Array<[string, string]>;
}

/** The hunks of one file's diff, with the names its headers give. */
export interface FilePatch {
  oldName: string | undefined;
  newName: string | undefined;
  /** The side a header says does not exist (`/dev/null`, or diff -N's timestamp at the epoch): created or deleted. */
  oldNone: boolean;
  newNone: boolean;
  hunks: Hunk[];
  /** The input line number of its first hunk, for messages. */
  line: number;
  headers: string[];
}

/** The file patches of diff text `text` (lines keep their `\n`; `\ No newline` drops the one before). */
export function parsePatch(text: string): FilePatch[] {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const patches: FilePatch[] = [];
  let current: FilePatch | undefined;
  const fresh = (line: number): FilePatch => {
    const p: FilePatch = { oldName: undefined, newName: undefined, oldNone: false, newNone: false, hunks: [], line, headers: [] };
    patches.push(p);
    return p;
  };
  const name = (l: string) => l.slice(4).replace(/\n$/, '').split('\t')[0]!.trim();
  // GNU patch reads a side named /dev/null, or dated at the epoch (how diff -N shows a missing file), as absent.
  const nonexistent = (l: string) => name(l) === '/dev/null' || /\t(1970-01-01 00:00:00(\.0+)? \+0000|Thu Jan  1 00:00:00 1970)\s*$/.test(l);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      // GNU names the line after the headers (the first hunk's).
      current = fresh(i + 3);
      current.oldName = name(l);
      current.newName = name(lines[i + 1]!);
      current.oldNone = nonexistent(l);
      current.newNone = nonexistent(lines[i + 1]!);
      current.headers.push(l, lines[i + 1]!);
      i++;
      continue;
    }
    const u = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(l);
    if (u) {
      current ??= fresh(i + 1);
      let oldLeft = u[2] === undefined ? 1 : Number(u[2]);
      let newLeft = u[4] === undefined ? 1 : Number(u[4]);
      const h: Hunk = { at: Number(u[1]) + (oldLeft === 0 ? 1 : 0), old: [], new: [], text: l, pre: 0, post: 0, newAt: Number(u[3]) + (newLeft === 0 ? 1 : 0), ops: [] };
      let changed = false;
      while ((oldLeft > 0 || newLeft > 0) && i + 1 < lines.length) {
        const b = lines[++i]!;
        h.text += b;
        const body = b.slice(1);
        h.ops.push([b === '\n' ? ' ' : b[0]!, b === '\n' ? '\n' : body]);
        if (b[0] === ' ' || b === '\n') {
          h.old.push(b === '\n' ? '\n' : body);
          h.new.push(b === '\n' ? '\n' : body);
          oldLeft--;
          newLeft--;
          if (changed) h.post++;
          else h.pre++;
        } else if (b[0] === '-' || b[0] === '+') {
          if (b[0] === '-') (h.old.push(body), oldLeft--);
          else (h.new.push(body), newLeft--);
          changed = true;
          h.post = 0;
        } else break;
        if (lines[i + 1]?.startsWith('\\')) {
          h.text += lines[++i]!;
          const strip = (arr: string[]) => arr.length > 0 && (arr[arr.length - 1] = arr[arr.length - 1]!.replace(/\n$/, ''));
          if (b[0] !== '+') strip(h.old);
          if (b[0] !== '-') strip(h.new);
        }
      }
      current.hunks.push(h);
      continue;
    }
    const n = /^(\d+)(?:,(\d+))?([acd])(\d+)(?:,(\d+))?\n?$/.exec(l);
    if (n) {
      current ??= fresh(i + 1);
      const from = Number(n[1]);
      const to = Number(n[4]);
      const h: Hunk = { at: n[3] === 'a' ? from + 1 : from, old: [], new: [], text: l, pre: 0, post: 0, newAt: n[3] === 'd' ? to + 1 : to, ops: [] };
      while (i + 1 < lines.length && /^(< |> |---|\\)/.test(lines[i + 1]!)) {
        const b = lines[++i]!;
        h.text += b;
        if (b.startsWith('< ')) {
          h.old.push(b.slice(2));
          h.ops.push(['-', b.slice(2)]);
        } else if (b.startsWith('> ')) {
          h.new.push(b.slice(2));
          h.ops.push(['+', b.slice(2)]);
        }
        else if (b.startsWith('\\')) {
          const arr = lines[i - 1]!.startsWith('<') ? h.old : h.new;
          arr[arr.length - 1] = arr[arr.length - 1]!.replace(/\n$/, '');
        }
      }
      current.hunks.push(h);
    }
  }
  return patches;
}

/**
 * Where hunk pattern `pat` matches `lines` with `fuzz` (0-based start, or -1), as GNU patch's locate_hunk: tried at
 * `first` (the hunk's line moved by the offset so far), then one line further each way, never before `frozen` (the
 * end of the hunk applied before it). A side with less context than the other lets the hunk match only at that end
 * of the file until fuzz covers the difference. `skip` gives the outer lines left unchecked at each end.
 */
export function locate(lines: string[], pat: string[], h: Hunk, first: number, frozen: number, fuzz: number): { at: number; skip: [number, number] } {
  const context = Math.max(h.pre, h.post);
  let pf = fuzz + h.pre - context;
  const sf = fuzz + h.post - context;
  if (pat.length === 0) return { at: first, skip: [0, 0] };
  const matches = (p: number, a: number, b: number) => {
    if (p < 0) return false;
    for (let k = a; k < pat.length - b; k++) if (p + k >= lines.length || lines[p + k] !== pat[k]) return false;
    return true;
  };
  const maxWhere = lines.length - (pat.length - sf);
  const minWhere = frozen - (h.pre - pf);
  const maxPos = maxWhere - first;
  let maxNeg = first - minWhere;
  if (first < maxNeg) maxNeg = first;
  if (pf < 0 && h.at <= 1) {
    if (sf < 0 && (pat.length !== lines.length || h.pre < frozen)) return { at: -1, skip: [0, 0] };
    return frozen <= h.pre && -first <= maxPos && matches(0, 0, Math.max(sf, 0)) ? { at: 0, skip: [0, Math.max(sf, 0)] } : { at: -1, skip: [0, 0] };
  }
  if (pf < 0) pf = 0;
  if (sf < 0) {
    const at = lines.length - pat.length;
    return first - at <= maxNeg && matches(at, pf, 0) ? { at, skip: [pf, 0] } : { at: -1, skip: [0, 0] };
  }
  const minOffset = maxPos < 0 ? first - maxWhere : maxNeg < 0 ? first - minWhere : 0;
  for (let d = minOffset; d <= Math.max(maxPos, maxNeg); d++) {
    if (d <= maxPos && matches(first + d, pf, sf)) return { at: first + d, skip: [pf, sf] };
    if (d <= maxNeg && matches(first - d, pf, sf)) return { at: first - d, skip: [pf, sf] };
  }
  return { at: -1, skip: [0, 0] };
}

/** A unified hunk the other way round, as GNU writes a reject under -R: new lines as `-`, old ones as `+`. */
export function reversedText(h: Hunk): string {
  if (!h.text.startsWith('@@')) return h.text;
  const range = (start: number, count: number) => (count === 0 ? `${start - 1},0` : count === 1 ? `${start}` : `${start},${count}`);
  let body = '';
  let minus = '';
  let plus = '';
  const flush = () => ((body += minus + plus), (minus = ''), (plus = ''));
  for (const [op, t] of h.ops) {
    if (op === '+') minus += `-${t}`;
    else if (op === '-') plus += `+${t}`;
    else (flush(), (body += ` ${t}`));
  }
  flush();
  return `@@ -${range(h.newAt, h.new.length)} +${range(h.at, h.old.length)} @@\n${body}`;
}
