/**
 * An awk array as mawk 1.3.4 keeps it, so that `for (k in a)` visits the keys in mawk's order: a hash table of 64
 * lists to begin with (doubled when it holds 12 entries a list on average), each entry on a list by its string
 * (FNV-1 hash) and, when it was reached by an integer number, on a list by that integer too; a found entry moves to
 * the front of its list, a new one goes in front; `split()` makes a plain vector that becomes a table when reached
 * otherwise. A loop walks the string lists in table order, giving integer-only entries their strings first.
 * @see mawk 1.3.4 array.w (array_find, find_by_ival, find_by_sval, add_string_associations, array_loop_vector,
 *   double_the_hash_table, convert_split_array_to_table) and hash.c (hash2, FNV-1)
 */

/** A subscript: a string, or a number that is an integer in mawk's Int range (mawk's C_DOUBLE fast path). */
export type ArrayKey = string | number;

interface Entry<V> {
  slink?: Entry<V>;
  ilink?: Entry<V>;
  sval?: string;
  hval: number;
  ival?: number;
  value: V;
}

interface Bucket<V> {
  slink?: Entry<V>;
  ilink?: Entry<V>;
}

const AY_INT = 1;
const AY_STR = 2;
const AY_SPLIT = 4;
const STARTING_HMASK = 63;
const MAX_AVE_LIST_LENGTH = 12;
const limitOf = (hmask: number) => (hmask + 1) * MAX_AVE_LIST_LENGTH;

/** mawk's hash2: 32-bit FNV-1 over the string's UTF-8 bytes. */
export function fnv1(s: string): number {
  let h = 2166136261;
  for (const b of Buffer.from(s, 'utf8')) h = Math.imul(h ^ b, 16777619) >>> 0;
  return h;
}

/** An integer subscript within mawk's Int (a C int), or undefined for a key mawk looks up by its string. */
export function intKey(n: number): number | undefined {
  return Number.isInteger(n) && n > -0x7fffffff && n < 0x7fffffff ? n : undefined;
}

/** An awk array with mawk's lookup, insertion and loop order; values of type V, `fresh()` for a new element. */
export class MawkArray<V> {
  private type = 0;
  private hmask = 0;
  private limit = 0;
  private table: Array<Bucket<V>> = [];
  private cells: V[] = [];
  size = 0;

  constructor(private readonly fresh: () => V) {}

  /** The element's value, creating it (with `fresh()`) when `create`; undefined when it is missing and not created. */
  find(key: ArrayKey, create: boolean): V | undefined {
    if (this.size === 0 && !create) return undefined;
    if (typeof key === 'number') {
      if (this.type === AY_SPLIT) {
        if (key >= 1 && key <= this.size) return this.cells[key - 1];
        if (!create) return undefined;
        this.splitToTable();
      } else if (this.type === 0) this.emptyTable(AY_INT);
      return this.byInt(key, create)?.value;
    }
    return this.byString(key, create).entry?.value;
  }

  get(key: ArrayKey): V | undefined {
    return this.find(key, false);
  }

  has(key: ArrayKey): boolean {
    return this.find(key, false) !== undefined;
  }

  /** Sets the element (found or created as mawk would, so its place in the lists is mawk's). */
  set(key: ArrayKey, value: V): void {
    if (typeof key === 'number' && this.type === AY_SPLIT && key >= 1 && key <= this.size) {
      this.cells[key - 1] = value;
      return;
    }
    if (typeof key === 'number') {
      if (this.type === AY_SPLIT) this.splitToTable();
      else if (this.type === 0) this.emptyTable(AY_INT);
      this.byInt(key, true)!.value = value;
    } else this.byString(key, true).entry!.value = value;
  }

  delete(key: ArrayKey): void {
    if (this.size === 0) return;
    if (typeof key === 'number') {
      if (this.type === AY_SPLIT) {
        if (key < 1 || key > this.size) return;
        this.splitToTable();
      }
      const e = this.byInt(key, false);
      if (!e) return;
      // Found entries are at the front of their lists.
      this.table[(e.ival! >>> 0) & this.hmask]!.ilink = e.ilink;
      if (e.sval !== undefined) this.unlink(e, 's');
    } else {
      const e = this.byString(key, false).entry;
      if (!e) return;
      this.table[e.hval & this.hmask]!.slink = e.slink;
      if (e.ival !== undefined) this.unlink(e, 'i');
    }
    if (--this.size === 0) this.clear();
  }

  clear(): void {
    this.type = 0;
    this.hmask = 0;
    this.limit = 0;
    this.table = [];
    this.cells = [];
    this.size = 0;
  }

  /** `split()`'s result: elements 1..n, as a plain vector. */
  load(values: V[]): void {
    this.clear();
    this.type = AY_SPLIT;
    this.cells = [...values];
    this.size = values.length;
  }

  /** The keys in the order `for (k in a)` visits them (mawk's array_loop_vector). */
  keys(): string[] {
    if (this.size === 0) return [];
    if (!(this.type & AY_STR)) this.addStrings();
    const out: string[] = [];
    for (const b of this.table) for (let e = b.slink; e; e = e.slink) out.push(e.sval!);
    return out;
  }

  private emptyTable(type: number): void {
    this.type = type;
    this.hmask = STARTING_HMASK;
    this.limit = limitOf(STARTING_HMASK);
    this.table = Array.from({ length: STARTING_HMASK + 1 }, () => ({}));
  }

  private byInt(ival: number, create: boolean): Entry<V> | undefined {
    let index = (ival >>> 0) & this.hmask;
    let p = this.table[index]!.ilink;
    let q: Entry<V> | undefined;
    for (;;) {
      if (!p) {
        if (this.type & AY_STR) {
          // Not on the integer lists: look it up by its string; mawk keeps the list index it had (a doubling
          // there leaves the entry on the old list, as mawk does).
          p = this.byString(String(ival), create).entry;
          if (!p) return undefined;
        } else if (create) {
          p = { hval: 0, value: this.fresh() };
          if (++this.size > this.limit) {
            this.double();
            index = (ival >>> 0) & this.hmask;
          }
        } else return undefined;
        p.ival = ival;
        this.type |= AY_INT;
        break;
      }
      if (p.ival === ival) {
        if (!q) return p;
        q.ilink = p.ilink;
        break;
      }
      q = p;
      p = p.ilink;
    }
    p.ilink = this.table[index]!.ilink;
    this.table[index]!.ilink = p;
    return p;
  }

  private byString(sval: string, create: boolean): { entry?: Entry<V> } {
    const hval = fnv1(sval);
    if (!(this.type & AY_STR)) this.addStrings();
    let index = hval & this.hmask;
    let p = this.table[index]!.slink;
    let q: Entry<V> | undefined;
    for (;;) {
      if (!p) {
        if (!create) return {};
        p = { sval, hval, value: this.fresh() };
        if (++this.size > this.limit) {
          this.double();
          index = hval & this.hmask;
        }
        break;
      }
      if (p.hval === hval && p.sval === sval) {
        if (!q) return { entry: p };
        q.slink = p.slink;
        break;
      }
      q = p;
      p = p.slink;
    }
    p.slink = this.table[index]!.slink;
    this.table[index]!.slink = p;
    return { entry: p };
  }

  /** Takes `e` off its string ('s') or integer ('i') list wherever it is on it. */
  private unlink(e: Entry<V>, list: 's' | 'i'): void {
    const bucket = this.table[list === 's' ? e.hval & this.hmask : (e.ival! >>> 0) & this.hmask]!;
    const next = (n: Entry<V>) => (list === 's' ? n.slink : n.ilink);
    let q: Entry<V> | undefined;
    let p = list === 's' ? bucket.slink : bucket.ilink;
    while (p && p !== e) {
      q = p;
      p = next(p);
    }
    if (!p) return;
    if (list === 's') {
      if (q) q.slink = p.slink;
      else bucket.slink = p.slink;
    } else if (q) q.ilink = p.ilink;
    else bucket.ilink = p.ilink;
  }

  /** Gives every integer-only entry its string and puts it in front of its string list (add_string_associations). */
  private addStrings(): void {
    if (this.type === 0) return this.emptyTable(AY_STR);
    if (this.type === AY_SPLIT) this.splitToTable();
    for (const b of this.table) {
      for (let p = b.ilink; p; p = p.ilink) {
        p.sval = String(p.ival);
        p.hval = fnv1(p.sval);
        const target = this.table[p.hval & this.hmask]!;
        p.slink = target.slink;
        target.slink = p;
      }
    }
    this.type |= AY_STR;
  }

  /** A split vector as a table: element i on integer list i & hmask, lists big enough for the count. */
  private splitToTable(): void {
    const cells = this.cells;
    this.hmask = STARTING_HMASK;
    this.limit = limitOf(STARTING_HMASK);
    while (this.size > this.limit) {
      this.hmask = this.hmask * 2 + 1;
      this.limit = limitOf(this.hmask);
    }
    this.table = Array.from({ length: this.hmask + 1 }, () => ({}));
    let j = 1;
    for (let i = 0; i < this.size; i++) {
      const p: Entry<V> = { hval: 0, ival: i + 1, value: cells[i]! };
      p.ilink = this.table[j]!.ilink;
      this.table[j]!.ilink = p;
      j = (j + 1) & this.hmask;
    }
    this.cells = [];
    this.type = AY_INT;
  }

  /** Doubles the table: each list keeps, in order, the entries that stay; the others move, in order, to its twin. */
  private double(): void {
    const old = this.hmask;
    const hmask = old * 2 + 1;
    for (let i = 0; i <= old; i++) this.table.push({});
    for (const list of ['s', 'i'] as const) {
      if (!(this.type & (list === 's' ? AY_STR : AY_INT))) continue;
      for (let i = 0; i <= old; i++) {
        const stay: Entry<V>[] = [];
        const move: Entry<V>[] = [];
        for (let p = list === 's' ? this.table[i]!.slink : this.table[i]!.ilink; p; p = list === 's' ? p.slink : p.ilink) {
          const h = list === 's' ? p.hval : p.ival! >>> 0;
          ((h & hmask) !== i ? move : stay).push(p);
        }
        relink(this.table[i]!, stay, list);
        relink(this.table[i + old + 1]!, move, list);
      }
    }
    this.hmask = hmask;
    this.limit = limitOf(hmask);
  }
}

/** Makes `entries` the string or integer list of `bucket`, in that order. */
function relink<V>(bucket: Bucket<V>, entries: Entry<V>[], list: 's' | 'i'): void {
  for (let k = 0; k < entries.length; k++) {
    const next = entries[k + 1];
    if (list === 's') entries[k]!.slink = next;
    else entries[k]!.ilink = next;
  }
  if (list === 's') bucket.slink = entries[0];
  else bucket.ilink = entries[0];
}
