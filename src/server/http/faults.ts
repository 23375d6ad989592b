/**
 * Fault rules: emulator-only knobs (`/_spritzer/faults`) that make matching requests fail with a chosen
 * status and envelope, e.g. a 429 with rate-limit headers, so clients can test their error paths. It owns the
 * rule list and matching; it does not know the routes.
 */
import type { components } from '../../../generated/openapi.d.ts';

/** One rule as stored and returned on the wire (`FaultRule` in spec/openapi.yaml). */
export type FaultRule = components['schemas']['FaultRule'];

/** A rule as a client sends it. */
export type FaultRuleRequest = components['schemas']['FaultRuleRequest'];

/** The fault rules of one server. */
export class FaultRegistry {
  private rules: FaultRule[] = [];
  private next = 1;

  /** Adds a rule and returns it with its id. */
  add(rule: FaultRuleRequest): FaultRule {
    const stored: FaultRule = { ...rule, id: rule.id ?? `fault-${this.next++}`, remaining: rule.times ?? null };
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
    if (rule.remaining !== null) {
      rule.remaining -= 1;
      if (rule.remaining <= 0) this.rules = this.rules.filter((r) => r !== rule);
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
