/**
 * Fault rules: emulator-only knobs (`/_spritzer/faults`) that make matching requests fail with a chosen
 * status and envelope, e.g. a 429 with rate-limit headers, so clients can test their error paths. It owns the
 * rule list and matching; it does not know the routes.
 */
import type { components } from '../../../generated/openapi.d.ts';
import { DEFAULT_LIMITS } from '../core/limits.ts';
import { ModelError } from '../core/errors.ts';

/** One rule as stored and returned on the wire (`FaultRule` in spec/openapi.yaml). */
export type FaultRule = components['schemas']['FaultRule'];

/** A rule as a client sends it. */
export type FaultRuleRequest = components['schemas']['FaultRuleRequest'];

/**
 * The fault rules of one server, in insertion order (a rule re-added under an existing id moves to the end).
 * Adding, replacing and expiring a rule are O(1) (a Map by id); matching scans the rules in order, and at most
 * `maxRules` rules exist, so no request costs more than that many comparisons.
 */
export class FaultRegistry {
  private readonly rules = new Map<string, FaultRule>();
  private next = 1;

  /** `maxRules`: how many rules may exist at once (`Limits.faultRulesMax`, docs/limits.md). */
  constructor(private readonly maxRules = DEFAULT_LIMITS.faultRulesMax) {}

  /**
   * Adds a rule (replacing one with the same id) and returns it with its id.
   * @throws ModelError `invalid_request` (400) when `maxRules` rules exist already and this one replaces none.
   */
  add(rule: FaultRuleRequest): FaultRule {
    const id = rule.id ?? `fault-${this.next++}`;
    if (!this.rules.has(id) && this.rules.size >= this.maxRules) {
      const message = `too many fault rules: at most ${this.maxRules} (clear them with DELETE /_spritzer/faults)`;
      throw new ModelError('invalid_request', message, { errors: [message] });
    }
    const stored: FaultRule = { ...rule, id, remaining: rule.times ?? null };
    this.rules.delete(id);
    this.rules.set(id, stored);
    return stored;
  }

  list(): FaultRule[] {
    return [...this.rules.values()].map((r) => ({ ...r }));
  }

  clear(): void {
    this.rules.clear();
  }

  /** The first rule matching this request, consuming one use of it; undefined when none. */
  take(operationId: string, sprite: string | undefined): FaultRule | undefined {
    let rule: FaultRule | undefined;
    for (const r of this.rules.values()) {
      if ((!r.operationId || r.operationId === operationId) && (!r.sprite || r.sprite === sprite)) {
        rule = r;
        break;
      }
    }
    if (!rule) return undefined;
    if (rule.remaining !== null) {
      rule.remaining -= 1;
      if (rule.remaining <= 0) this.rules.delete(rule.id);
    }
    return { ...rule };
  }
}

/** What a matched fault rule answers: status, headers (rate-limit ones on 429) and the JSON envelope. */
export function faultResponse(fault: FaultRule, nowMs: number): { status: number; headers: Record<string, string>; body: { error: string; [k: string]: unknown } } {
  const headers: Record<string, string> = {};
  const body: { error: string; [k: string]: unknown } = {
    error: fault.error ?? 'fault_injected',
    message: fault.message ?? `injected fault ${fault.id}`,
  };
  if (fault.retryAfterSeconds !== undefined) {
    headers['Retry-After'] = String(fault.retryAfterSeconds);
    body.retry_after_seconds = fault.retryAfterSeconds;
  }
  if (fault.status === 429) {
    headers['X-RateLimit-Limit'] = '10';
    headers['X-RateLimit-Remaining'] = '0';
    headers['X-RateLimit-Reset'] = String(Math.ceil(nowMs / 1000) + (fault.retryAfterSeconds ?? 60));
  }
  return { status: fault.status, headers, body };
}
