/**
 * `join` as GNU coreutils runs it, in place of just-bash's: a merge of two files sorted on their join fields
 * (`-1`, `-2`, `-j`; blank-separated fields, or `-t CHAR`), every pair of lines with equal keys joined (the key,
 * then file 1's other fields, then file 2's), `-a N` / `-v N` for unpairable lines, `-o FORMAT` (`0`, `N.F`, `auto`)
 * with `-e` for missing fields, `-i`, `--header`, `-z`. Input that is not sorted is reported as GNU does once a line
 * could not be paired (or always with `--check-order`): `join: F:N: is not sorted: LINE`, then `join: input is not
 * in sorted order`, status 1.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/join-invocation.html (and coreutils' src/join.c)
 */
import { bytesOutput, defineCommand, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { readOperand } from './text-input.ts';

interface Options {
  fields: [number, number];
  tab?: string;
  unpaired: Set<number>;
  onlyUnpaired: boolean;
  empty?: string;
  format?: Array<{ file: 0 | 1 | 2; field: number }> | 'auto';
  ignoreCase: boolean;
  header: boolean;
  check: 'default' | 'on' | 'off';
  eol: string;
}

const usage = (what: string): ExecResult => ({ stdout: '', stderr: `join: ${what}\nTry 'join --help' for more information.\n`, exitCode: 1 });

/** A field number (1-based) as GNU reads it, or null. */
const fieldNumber = (v: string | undefined): number | null => (v !== undefined && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : null);

function parse(args: string[]): { o: Options; files: string[] } | ExecResult {
  const o: Options = { fields: [1, 1], unpaired: new Set(), onlyUnpaired: false, ignoreCase: false, header: false, check: 'default', eol: '\n' };
  const files: string[] = [];
  const formats: string[] = [];
  for (let i = 0; i < args.length; i++) {
    let a = args[i]!;
    if (a === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq);
      const value = () => (eq < 0 ? args[++i] : a.slice(eq + 1));
      if (name === '--ignore-case') o.ignoreCase = true;
      else if (name === '--header') o.header = true;
      else if (name === '--check-order') o.check = 'on';
      else if (name === '--nocheck-order') o.check = 'off';
      else if (name === '--zero-terminated') o.eol = '\0';
      else return usage(`unrecognized option '${a}'`);
      void value;
      continue;
    }
    if (!a.startsWith('-') || a === '-') {
      files.push(a);
      continue;
    }
    // A short cluster: flags, then at most one option taking the rest (or the next word) as its value.
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (c === 'i') o.ignoreCase = true;
      else if (c === 'z') o.eol = '\0';
      else if ('aevjot12'.includes(c)) {
        const v = j + 1 < a.length ? a.slice(j + 1) : args[++i];
        if (v === undefined) return usage(`option requires an argument -- '${c}'`);
        if (c === 'a' || c === 'v') {
          if (v !== '1' && v !== '2') return usage(`invalid field number: '${v}'`);
          o.unpaired.add(Number(v));
          if (c === 'v') o.onlyUnpaired = true;
        } else if (c === 'e') o.empty = v;
        else if (c === 't') {
          if (Buffer.byteLength(v) > 1 && v !== '\\0') return { stdout: '', stderr: `join: multi-character tab '${v}'\n`, exitCode: 1 };
          o.tab = v === '\\0' ? '\0' : Buffer.from(v, 'utf8').toString('latin1');
        } else if (c === 'o') formats.push(v);
        else {
          const n = fieldNumber(v);
          if (n === null) return { stdout: '', stderr: `join: invalid field number: '${v}'\n`, exitCode: 1 };
          if (c === '1' || c === 'j') o.fields[0] = n;
          if (c === '2' || c === 'j') o.fields[1] = n;
        }
        break;
      } else return usage(`invalid option -- '${c}'`);
    }
    a = '';
  }
  if (formats.length > 0) {
    if (formats.length === 1 && formats[0] === 'auto') o.format = 'auto';
    else {
      const specs: Array<{ file: 0 | 1 | 2; field: number }> = [];
      for (const spec of formats.join(',').split(/[,\s]+/).filter(Boolean)) {
        if (spec === '0') specs.push({ file: 0, field: 0 });
        else {
          const m = /^([12])\.(\d+)$/.exec(spec);
          const n = fieldNumber(m?.[2]);
          if (!m || n === null) return { stdout: '', stderr: `join: invalid field specifier: '${spec}'\n`, exitCode: 1 };
          specs.push({ file: Number(m[1]) as 1 | 2, field: n });
        }
      }
      o.format = specs;
    }
  }
  if (files.length < 2) return usage(files.length === 0 ? 'missing operand' : `missing operand after '${files[0]}'`);
  if (files.length > 2) return usage(`extra operand '${files[2]}'`);
  return { o, files };
}

/** A line's fields: split at each `tab` character, or (no `-t`) at runs of blanks with leading blanks skipped. */
function fieldsOf(line: string, tab: string | undefined): string[] {
  if (tab === '') return line === '' ? [] : [line];
  if (tab !== undefined) return line === '' ? [] : line.split(tab);
  return line.replace(/^[ \t]+/, '').split(/[ \t]+/).filter((f, i, all) => f !== '' || i < all.length - 1);
}

async function join(args: string[], ctx: CommandContext): Promise<ExecResult> {
  const parsed = parse(args);
  if ('exitCode' in parsed) return parsed;
  const { o, files } = parsed;
  if (files[0] === '-' && files[1] === '-') return { stdout: '', stderr: 'join: both files cannot be standard input\n', exitCode: 1 };
  const inputs: string[][] = [];
  for (const f of files) {
    const r = await readOperand(ctx, f);
    if ('error' in r) return { stdout: '', stderr: `join: ${f}: ${r.error}\n`, exitCode: 1 };
    const lines = r.bytes.split(o.eol);
    if (lines[lines.length - 1] === '') lines.pop();
    inputs.push(lines);
  }
  const rows = inputs.map((lines) => lines.map((l) => ({ text: l, fields: fieldsOf(l, o.tab) })));
  const sep = o.tab === undefined || o.tab === '' ? ' ' : o.tab;
  const key = (row: { fields: string[] }, k: 0 | 1) => {
    const f = row.fields[o.fields[k] - 1] ?? '';
    return o.ignoreCase ? f.toLowerCase() : f;
  };
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const autoCount = o.format === 'auto' ? [rows[0]![0]?.fields.length ?? 0, rows[1]![0]?.fields.length ?? 0] : undefined;
  let out = '';
  let err = '';
  const field = (row: { fields: string[] } | null, n: number) => (row && n < row.fields.length ? row.fields[n]! : (o.empty ?? ''));
  const print = (r1: { fields: string[] } | null, r2: { fields: string[] } | null) => {
    const parts: string[] = [];
    const keyOf = () => (r1 ? field(r1, o.fields[0] - 1) : field(r2, o.fields[1] - 1));
    if (Array.isArray(o.format)) {
      for (const s of o.format) parts.push(s.file === 0 ? keyOf() : field(s.file === 1 ? r1 : r2, s.field - 1));
    } else {
      parts.push(keyOf());
      for (const [k, r] of [[0, r1], [1, r2]] as const) {
        const count = autoCount ? autoCount[k]! : (r?.fields.length ?? 0);
        if (!r && !autoCount) continue;
        for (let i = 0; i < count; i++) if (i !== o.fields[k] - 1) parts.push(field(r, i));
      }
    }
    out += parts.join(sep) + o.eol;
  };
  const start = [0, 0];
  if (o.header) {
    const h1 = rows[0]![0];
    const h2 = rows[1]![0];
    if (h1 || h2) print(h1 ?? null, h2 ?? null);
    start[0] = h1 ? 1 : 0;
    start[1] = h2 ? 1 : 0;
  }
  // GNU's merge (join.c join()): the order of each file is checked as lines are read, once a line went unpaired
  // (always with --check-order, where the first disorder ends the run).
  let seenUnpairable = false;
  const warned = [false, false];
  const at = [start[0]!, start[1]!];
  class Disorder {}
  const read = (k: 0 | 1): boolean => {
    const i = at[k]!;
    if (i >= rows[k]!.length) return false;
    if (i > start[k]! && o.check !== 'off' && (o.check === 'on' || seenUnpairable) && !warned[k] && cmp(key(rows[k]![i - 1]!, k), key(rows[k]![i]!, k)) > 0) {
      err += `join: ${files[k]}:${i + 1}: is not sorted: ${rows[k]![i]!.text}\n`;
      warned[k] = true;
      if (o.check === 'on') throw new Disorder();
    }
    return true;
  };
  const row = (k: 0 | 1) => rows[k]![at[k]!]!;
  const printOne = (k: 0 | 1) => print(k === 0 ? row(0) : null, k === 1 ? row(1) : null);
  try {
    let has1 = read(0);
    let has2 = read(1);
    while (has1 && has2) {
      const d = cmp(key(row(0), 0), key(row(1), 1));
      if (d !== 0) {
        const k = d < 0 ? 0 : 1;
        if (o.unpaired.has(k + 1)) printOne(k);
        at[k]!++;
        seenUnpairable = true;
        if (k === 0) has1 = read(0);
        else has2 = read(1);
        continue;
      }
      const k1 = key(row(0), 0);
      const g1 = [row(0)];
      const g2 = [row(1)];
      at[0]!++;
      while ((has1 = read(0)) && cmp(key(row(0), 0), k1) === 0) (g1.push(row(0)), at[0]!++);
      at[1]!++;
      while ((has2 = read(1)) && cmp(key(row(1), 1), k1) === 0) (g2.push(row(1)), at[1]!++);
      if (!o.onlyUnpaired) for (const x of g1) for (const y of g2) print(x, y);
    }
    // The tails: printed when asked for, and read through to check their order.
    const checkTail = o.check !== 'off' && !(warned[0] && warned[1]);
    for (const k of [0, 1] as const) {
      const wanted = o.unpaired.has(k + 1);
      if (!(wanted || checkTail) || !(k === 0 ? has1 : has2)) continue;
      if (wanted) printOne(k);
      for (;;) {
        at[k]!++;
        if (!read(k)) break;
        if (wanted) printOne(k);
        if (warned[k] && !wanted) break;
      }
    }
  } catch (e) {
    if (!(e instanceof Disorder)) throw e;
    return { ...bytesOutput(unsafeBytesFromLatin1(out)), stderr: err, exitCode: 1 };
  }
  const disorder = warned[0] || warned[1];
  if (disorder) err += 'join: input is not in sorted order\n';
  return { ...bytesOutput(unsafeBytesFromLatin1(out)), stderr: err, exitCode: disorder ? 1 : 0 };
}

/** `join` for just-bash's `customCommands`, in place of just-bash's (no `-o 0`, `--header`, order checks). */
export function joinCommands(): CustomCommand[] {
  return [defineCommand('join', (args, ctx) => join(args, ctx))];
}
