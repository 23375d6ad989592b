/**
 * The egress gate's memory of which names each address was resolved from, bounded: a sprite that resolves names
 * without end (500k names once cost spritzer 121 MiB) keeps only the addresses it resolved most recently.
 * The gate lets a raw-address connection through only for an address remembered here (docs/sandbox.md "Egress").
 */

/** Most addresses remembered per sprite; past it the least recently resolved or used one is forgotten. */
export const MAX_RESOLVED_ADDRESSES = 2048;
/** Most names remembered per address (a CDN address serves many names); past it the oldest name is forgotten. */
export const MAX_NAMES_PER_ADDRESS = 8;

/**
 * address → the names it was resolved from, least recently touched first. Memory is bounded by
 * {@link MAX_RESOLVED_ADDRESSES} × {@link MAX_NAMES_PER_ADDRESS} names (each at most 253 bytes, a DNS name's limit).
 * Forgetting is safe in one direction only: a forgotten address is refused until it is resolved again, never allowed.
 */
export class ResolvedNames {
  private readonly byAddress = new Map<string, string[]>();

  constructor(
    private readonly maxAddresses = MAX_RESOLVED_ADDRESSES,
    private readonly maxNamesPerAddress = MAX_NAMES_PER_ADDRESS,
  ) {}

  /** Records that `name` resolved to `address`; makes the address the most recent. */
  remember(address: string, name: string): void {
    const names = (this.byAddress.get(address) ?? []).filter((n) => n !== name);
    names.push(name);
    if (names.length > this.maxNamesPerAddress) names.splice(0, names.length - this.maxNamesPerAddress);
    this.byAddress.delete(address);
    this.byAddress.set(address, names);
    while (this.byAddress.size > this.maxAddresses) this.byAddress.delete(this.byAddress.keys().next().value!);
  }

  /**
   * The names `address` was resolved from (empty when it is not remembered); a hit makes the address the most
   * recent, so an address in steady use is not forgotten.
   */
  namesOf(address: string): readonly string[] {
    const names = this.byAddress.get(address);
    if (!names) return [];
    this.byAddress.delete(address);
    this.byAddress.set(address, names);
    return names;
  }

  /** How many addresses are remembered (tests, diagnostics). */
  get size(): number {
    return this.byAddress.size;
  }
}
