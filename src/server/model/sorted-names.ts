/**
 * A set of sprite names kept in ascending order (UTF-16 code-unit order, as `<` compares strings), so that a page
 * of the sprite list — the names after a continuation token, under a prefix — is a binary search and a slice
 * instead of a sort of every sprite. Adding or removing a name moves at most n references (one `splice`); listing
 * every sprite page by page is then O(n) in all, not O(n² log n). It holds names only; the model holds sprites.
 * @see spec/openapi.yaml `listSprites`
 */
export class SortedNames {
  private readonly names: string[] = [];

  /** The number of names held. */
  get size(): number {
    return this.names.length;
  }

  /** The index of the first name ≥ `name` (`size` when there is none). */
  private lowerBound(name: string): number {
    let lo = 0;
    let hi = this.names.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.names[mid]! < name) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Adds `name`; adding a name already held changes nothing. */
  add(name: string): void {
    const i = this.lowerBound(name);
    if (this.names[i] !== name) this.names.splice(i, 0, name);
  }

  /** Removes `name`; removing a name not held changes nothing. */
  remove(name: string): void {
    const i = this.lowerBound(name);
    if (this.names[i] === name) this.names.splice(i, 1);
  }

  /** Removes every name. */
  clear(): void {
    this.names.length = 0;
  }

  /**
   * Up to `limit` names that start with `prefix` (`''`: any) and come strictly after `after` (null: from the
   * first), in ascending order.
   */
  page(prefix: string, after: string | null, limit: number): string[] {
    let i = this.lowerBound(prefix);
    if (after !== null && after >= prefix) {
      i = this.lowerBound(after);
      if (this.names[i] === after) i++;
    }
    const out: string[] = [];
    for (; i < this.names.length && out.length < limit; i++) {
      const name = this.names[i]!;
      if (!name.startsWith(prefix)) break; // names with the prefix are contiguous, from lowerBound(prefix) on
      out.push(name);
    }
    return out;
  }
}
