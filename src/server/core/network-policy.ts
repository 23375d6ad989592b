/**
 * The network policy of a sprite: strict validation of a posted policy, evaluation of a hostname against it,
 * and the read-only copy at `/.sprite/policy/network.json` inside the sprite. It does not enforce anything
 * (DNS filtering belongs to real engines) and knows no HTTP; storing the policy per sprite is the caller's.
 * @see docs/wire-reference.md §10
 */
import { ModelError } from './errors.ts';

/** What a rule does to the names it matches. */
export type NetworkPolicyAction = 'allow' | 'deny';

/** `{domain, action}`: `domain` is an exact name, `*.suffix` or `*`. */
export interface NetworkPolicyDomainRule {
  domain: string;
  action: NetworkPolicyAction;
}

/** `{include: "defaults"}`: allow the preset list (`DEFAULT_ALLOWED_DOMAINS`). `action` is accepted and ignored. */
export interface NetworkPolicyIncludeRule {
  include: 'defaults';
  action?: NetworkPolicyAction;
}

/** One rule: exactly one of `domain` / `include`. */
export type NetworkPolicyRule = NetworkPolicyDomainRule | NetworkPolicyIncludeRule;

/** A network policy (the wire body as is). `{rules: []}` means no enforcement. */
export interface NetworkPolicy {
  rules: NetworkPolicyRule[];
}

/** The policy of a sprite nobody has set, `{rules: []}`: no enforcement (§10.1). A fresh object per call. */
export function defaultNetworkPolicy(): NetworkPolicy {
  return { rules: [] };
}

/** Where the sprite sees its policy (§10.2: "visible read-only in the sprite"). */
export const NETWORK_POLICY_PATH = '/.sprite/policy/network.json';

/**
 * What `{include: "defaults"}` allows: code hosting, package registries, container registries and major AI
 * APIs, each as an exact name or a `*.suffix` pattern.
 * @deviation Sprites do not publish their preset; this list covers what §10.1 names (GitHub, npm, PyPI,
 *   Docker Hub, major AI APIs) and nothing else.
 */
export const DEFAULT_ALLOWED_DOMAINS: readonly string[] = Object.freeze([
  // GitHub
  'github.com', '*.github.com', 'githubusercontent.com', '*.githubusercontent.com', 'ghcr.io', '*.ghcr.io',
  'github.io', '*.github.io',
  // npm / yarn
  'npmjs.org', '*.npmjs.org', 'npmjs.com', '*.npmjs.com', 'registry.yarnpkg.com',
  // PyPI
  'pypi.org', '*.pypi.org', 'pythonhosted.org', '*.pythonhosted.org',
  // Docker Hub
  'docker.io', '*.docker.io', 'docker.com', '*.docker.com',
  // AI APIs
  'api.openai.com', 'api.anthropic.com', 'generativelanguage.googleapis.com', 'api.mistral.ai', 'api.groq.com',
  'api.cohere.com', 'api.together.xyz', 'openrouter.ai', 'api.deepseek.com', 'api.x.ai',
]);

const POLICY_KEYS = new Set(['rules']);
const RULE_KEYS = new Set(['domain', 'include', 'action']);

/**
 * Validates a posted policy body, strictly, and returns it as a `NetworkPolicy` (a fresh copy).
 * Rules: the body is an object whose only key is `rules` (required, an array, may be empty); every rule is an
 * object with only `domain`, `include`, `action`; exactly one of `domain` / `include`; `include` must be
 * `"defaults"` and its `action`, if present, `allow` or `deny`; a `domain` rule needs a non-empty string `domain`
 * and `action` `allow` or `deny`.
 * @throws ModelError `invalid` with the message `invalid policy config` on any violation (the text SRV answers).
 * @see docs/wire-reference.md §10.2
 */
export function validateNetworkPolicy(body: unknown): NetworkPolicy {
  if (!isPlainObject(body) || !hasOnlyKeys(body, POLICY_KEYS) || !Array.isArray(body.rules)) throw invalidPolicy();
  return { rules: body.rules.map(validateRule) };
}

function validateRule(rule: unknown): NetworkPolicyRule {
  if (!isPlainObject(rule) || !hasOnlyKeys(rule, RULE_KEYS)) throw invalidPolicy();
  const hasDomain = rule.domain !== undefined;
  const hasInclude = rule.include !== undefined;
  if (hasDomain === hasInclude) throw invalidPolicy();
  const { action } = rule;
  if (action !== undefined && action !== 'allow' && action !== 'deny') throw invalidPolicy();
  if (hasInclude) {
    if (rule.include !== 'defaults') throw invalidPolicy();
    return action === undefined ? { include: 'defaults' } : { include: 'defaults', action };
  }
  if (typeof rule.domain !== 'string' || !isDomainPattern(rule.domain) || action === undefined) throw invalidPolicy();
  return { domain: rule.domain, action };
}

/**
 * `*`, `*.suffix` or a plain DNS name (a trailing dot allowed): labels of 1–63 letters, digits, `-` or `_`,
 * at most 253 characters in all. URLs, blanks and other `*`s are not domains.
 */
function isDomainPattern(domain: string): boolean {
  if (domain === '*') return true;
  const name = (domain.startsWith('*.') ? domain.slice(2) : domain).replace(/\.$/, '');
  return name.length <= 253 && name.split('.').every((label) => /^[A-Za-z0-9_-]{1,63}$/.test(label));
}

/**
 * Decides whether `hostname` may be resolved under `policy`. Empty rules → `allow` (no enforcement).
 * Otherwise the most specific matching rule wins: an exact name beats `*.suffix` (the longest suffix wins;
 * `*.example.com` matches `a.example.com` and `a.b.example.com`, not `example.com`), which beats `*`.
 * `{include: "defaults"}` adds `allow` rules for `DEFAULT_ALLOWED_DOMAINS`, never a deny. Between rules of equal
 * specificity, `deny` wins. No matching rule → `deny` (the policy is an allowlist). Names compare
 * case-insensitively, a trailing dot ignored.
 * @see docs/wire-reference.md §10.2 ("more specific wins (exact > `*.x` > `*`)")
 */
export function evaluateNetworkPolicy(policy: NetworkPolicy, hostname: string): NetworkPolicyAction {
  if (policy.rules.length === 0) return 'allow';
  const host = canonical(hostname);
  let best: { specificity: number; action: NetworkPolicyAction } | null = null;
  for (const { pattern, action } of expandRules(policy.rules)) {
    const specificity = matchSpecificity(canonical(pattern), host);
    if (specificity < 0) continue;
    if (!best || specificity > best.specificity || (specificity === best.specificity && action === 'deny')) {
      best = { specificity, action };
    }
  }
  return best?.action ?? 'deny';
}

/** Domain rules as given plus one allow per default domain for each `include: defaults`. */
function* expandRules(rules: NetworkPolicyRule[]): Iterable<{ pattern: string; action: NetworkPolicyAction }> {
  for (const rule of rules) {
    if ('include' in rule) for (const d of DEFAULT_ALLOWED_DOMAINS) yield { pattern: d, action: 'allow' };
    else yield { pattern: rule.domain, action: rule.action };
  }
}

/**
 * How specifically `pattern` matches `host`: -1 no match, 0 for `*`, 1 + suffix length for `*.suffix`, and
 * `Number.MAX_SAFE_INTEGER` for an exact name (beats any suffix).
 */
function matchSpecificity(pattern: string, host: string): number {
  if (pattern === '*') return 0;
  if (pattern.startsWith('*.')) {
    const suffix = pattern.slice(1); // ".example.com"
    return host.endsWith(suffix) && host.length > suffix.length ? suffix.length : -1;
  }
  return pattern === host ? Number.MAX_SAFE_INTEGER : -1;
}

function canonical(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

function invalidPolicy(): ModelError {
  return new ModelError('invalid', 'invalid policy config');
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  // Stryker disable next-line ConditionalExpression: for JSON input a string or number also fails the key checks that follow.
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function hasOnlyKeys(obj: Record<string, unknown>, allowed: Set<string>): boolean {
  return Object.keys(obj).every((k) => allowed.has(k));
}
