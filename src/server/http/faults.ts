/**
 * Fault rules: emulator-only knobs (`/_spritzer/faults`) that make matching requests fail with a chosen
 * status and envelope, e.g. a 429 with rate-limit headers, so clients can test their error paths. It owns the
 * rule list and matching; it does not know the routes.
 */

/** One rule as stored and returned on the wire. */
export interface FaultRule {
  id: string;
  /** Match this operationId only (any when absent). */
  operationId?: string;
  /** Match this sprite name only (any when absent). */
  sprite?: string;
  /** HTTP status to answer (400..599). */
  status: number;
  /** `error` field of the JSON envelope (default derived from the status). */
  error?: string;
  message?: string;
  /** For 429: `Retry-After` and `retry_after_seconds`. */
  retryAfterSeconds?: number;
  /** How many requests it fails before it disappears; unlimited when absent. */
  times?: number;
  /** Requests left (only with `times`). */
  remaining?: number;
}

/** The fault rules of one server. */
export class FaultRegistry {
  private rules: FaultRule[] = [];
  private next = 1;

  /** Adds a rule and returns it with its id. */
  add(rule: Omit<FaultRule, 'id' | 'remaining'> & { id?: string }): FaultRule {
    const stored: FaultRule = { ...rule, id: rule.id ?? `fault-${this.next++}` };
    if (stored.times !== undefined) stored.remaining = stored.times;
    this.rules = this.rules.filter((r) => r.id !== stored.id).concat(stored);
    return stored;
  }

  list(): FaultRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  clear(): void {
    this.rules = [];
  }

  /** The first rule matching this request, consuming one use of it; undefined when none. */
  take(operationId: string, sprite: string | undefined): FaultRule | undefined {
    const rule = this.rules.find(
      (r) => (!r.operationId || r.operationId === operationId) && (!r.sprite || r.sprite === sprite),
    );
    if (!rule) return undefined;
    if (rule.remaining !== undefined) {
      rule.remaining -= 1;
      if (rule.remaining <= 0) this.rules = this.rules.filter((r) => r !== rule);
    }
    return { ...rule };
  }
}
