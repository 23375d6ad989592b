import { describe, it, expect } from 'vitest';
import {
  DEFAULT_ALLOWED_DOMAINS,
  defaultNetworkPolicy,
  NETWORK_POLICY_PATH,
  evaluateNetworkPolicy,
  validateNetworkPolicy,
  type NetworkPolicy,
} from './network-policy.ts';
import { ModelError } from './errors.ts';
import { Vfs } from '../machines/memory/vfs.ts';
import { SpritePolicies } from '../model/sprite-policies.ts';
import { vfsMachineFs } from '../machines/memory/machine.ts';

function rejection(body: unknown): ModelError | undefined {
  try {
    validateNetworkPolicy(body);
    return undefined;
  } catch (e) {
    return e as ModelError;
  }
}

describe('validateNetworkPolicy', () => {
  it.each<[string, unknown]>([
    ['empty rules', { rules: [] }],
    ['an allow rule', { rules: [{ domain: 'example.com', action: 'allow' }] }],
    ['a deny wildcard', { rules: [{ domain: '*', action: 'deny' }] }],
    ['a suffix rule', { rules: [{ domain: '*.example.com', action: 'allow' }] }],
    ['include defaults', { rules: [{ include: 'defaults' }] }],
    ['include defaults with an action', { rules: [{ include: 'defaults', action: 'allow' }] }],
    ['a trailing dot', { rules: [{ domain: 'example.com.', action: 'deny' }] }],
    ['a 253-character name', { rules: [{ domain: `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`, action: 'allow' }] }],
    ['a 63-character label, digits, - and _', { rules: [{ domain: `${'x'.repeat(63)}.my_host-1.com`, action: 'allow' }] }],
  ])('accepts %s', (_, body) => {
    expect(validateNetworkPolicy(body)).toStrictEqual(body);
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['an array', []],
    ['a string', 'rules'],
    ['no rules key', {}],
    ['rules not an array', { rules: {} }],
    ['an unknown top-level field', { rules: [], mode: 'strict' }],
    ['a rule that is not an object', { rules: ['example.com'] }],
    ['an unknown rule field', { rules: [{ domain: 'a.com', action: 'allow', port: 443 }] }],
    ['both domain and include', { rules: [{ domain: 'a.com', include: 'defaults', action: 'allow' }] }],
    ['neither domain nor include', { rules: [{ action: 'allow' }] }],
    ['an include other than defaults', { rules: [{ include: 'github' }] }],
    ['include with a bad action', { rules: [{ include: 'defaults', action: 'block' }] }],
    ['a domain rule without action', { rules: [{ domain: 'a.com' }] }],
    ['a domain rule with a bad action', { rules: [{ domain: 'a.com', action: 'ALLOW' }] }],
    ['a non-string domain', { rules: [{ domain: 42, action: 'allow' }] }],
    ['an empty domain', { rules: [{ domain: '', action: 'allow' }] }],
    ['a star inside a name', { rules: [{ domain: 'a*.com', action: 'allow' }] }],
    ['an empty label', { rules: [{ domain: 'a..com', action: 'allow' }] }],
    ['a null domain', { rules: [{ domain: null, action: 'allow' }] }],
    ['a 254-character name', { rules: [{ domain: `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`, action: 'allow' }] }],
    ['a 64-character label', { rules: [{ domain: `${'x'.repeat(64)}.com`, action: 'allow' }] }],
    ['a URL', { rules: [{ domain: 'https://example.com', action: 'allow' }] }],
    ['a blank inside a name', { rules: [{ domain: 'a b.com', action: 'allow' }] }],
    ['other characters before a name', { rules: [{ domain: '$$example.com', action: 'allow' }] }],
    ['a star after the first label', { rules: [{ domain: 'a.*.com', action: 'allow' }] }],
  ])('rejects %s with invalid policy config', (_, body) => {
    const err = rejection(body);
    expect(err).toBeInstanceOf(ModelError);
    expect(err?.kind).toBe('invalid');
    expect(err?.message).toBe('invalid policy config');
  });

  it('returns a copy the caller cannot change through the body', () => {
    const body = { rules: [{ domain: 'a.com', action: 'allow' }] };
    const policy = validateNetworkPolicy(body);
    body.rules[0].action = 'deny';
    expect(policy.rules[0]).toEqual({ domain: 'a.com', action: 'allow' });
  });
});

describe('evaluateNetworkPolicy', () => {
  const policy = (...rules: NetworkPolicy['rules']): NetworkPolicy => ({ rules });

  it('allows everything when there are no rules, as by default', () => {
    expect(evaluateNetworkPolicy(policy(), 'anything.example')).toBe('allow');
    expect(defaultNetworkPolicy()).toEqual({ rules: [] });
    expect(evaluateNetworkPolicy(defaultNetworkPolicy(), 'anything.example')).toBe('allow');
  });

  it('denies names no rule matches', () => {
    expect(evaluateNetworkPolicy(policy({ domain: 'a.com', action: 'allow' }), 'b.com')).toBe('deny');
  });

  it('lets an exact name beat a suffix, and a suffix beat *', () => {
    const p = policy(
      { domain: '*', action: 'deny' },
      { domain: '*.example.com', action: 'allow' },
      { domain: 'bad.example.com', action: 'deny' },
    );
    expect(evaluateNetworkPolicy(p, 'other.org')).toBe('deny');
    expect(evaluateNetworkPolicy(p, 'api.example.com')).toBe('allow');
    expect(evaluateNetworkPolicy(p, 'bad.example.com')).toBe('deny');
  });

  it('lets the longest suffix win, whatever the rule order', () => {
    const p = policy({ domain: '*.internal.example.com', action: 'deny' }, { domain: '*.example.com', action: 'allow' });
    expect(evaluateNetworkPolicy(p, 'db.internal.example.com')).toBe('deny');
    expect(evaluateNetworkPolicy(p, 'www.example.com')).toBe('allow');
  });

  it('does not match the bare suffix with *.suffix', () => {
    const p = policy({ domain: '*.example.com', action: 'allow' });
    expect(evaluateNetworkPolicy(p, 'example.com')).toBe('deny');
    expect(evaluateNetworkPolicy(p, 'a.b.example.com')).toBe('allow');
    expect(evaluateNetworkPolicy(p, 'notexample.com')).toBe('deny');
  });

  it('lets * allow everything not otherwise denied', () => {
    const p = policy({ domain: '*', action: 'allow' }, { domain: 'evil.com', action: 'deny' });
    expect(evaluateNetworkPolicy(p, 'good.com')).toBe('allow');
    expect(evaluateNetworkPolicy(p, 'evil.com')).toBe('deny');
  });

  it('compares names case-insensitively and ignores a trailing dot', () => {
    const p = policy({ domain: 'Example.COM', action: 'allow' });
    expect(evaluateNetworkPolicy(p, 'example.com.')).toBe('allow');
    expect(evaluateNetworkPolicy(p, 'EXAMPLE.com')).toBe('allow');
  });

  it('lets deny win between rules of equal specificity, in either order', () => {
    expect(evaluateNetworkPolicy(policy({ domain: 'a.com', action: 'allow' }, { domain: 'a.com', action: 'deny' }), 'a.com')).toBe('deny');
    expect(evaluateNetworkPolicy(policy({ domain: 'a.com', action: 'deny' }, { domain: 'a.com', action: 'allow' }), 'a.com')).toBe('deny');
    const suffixes = [{ domain: '*.a.com', action: 'deny' }, { domain: '*.a.com', action: 'allow' }] as const;
    expect(evaluateNetworkPolicy(policy(...suffixes), 'x.a.com')).toBe('deny');
    expect(evaluateNetworkPolicy(policy(suffixes[1], suffixes[0]), 'x.a.com')).toBe('deny');
  });

  it('gives the same verdict whatever the rule order', () => {
    const allowA = { domain: 'a.com', action: 'allow' } as const;
    const denyAll = { domain: '*', action: 'deny' } as const;
    for (const p of [policy(allowA, denyAll), policy(denyAll, allowA)]) {
      expect(evaluateNetworkPolicy(p, 'a.com')).toBe('allow');
      expect(evaluateNetworkPolicy(p, 'b.com')).toBe('deny');
    }
    const allowSuffix = { domain: '*.a.com', action: 'allow' } as const;
    const denyExact = { domain: 'x.a.com', action: 'deny' } as const;
    for (const p of [policy(allowSuffix, denyExact), policy(denyExact, allowSuffix)]) {
      expect(evaluateNetworkPolicy(p, 'x.a.com')).toBe('deny');
      expect(evaluateNetworkPolicy(p, 'y.a.com')).toBe('allow');
    }
  });

  it('does not take a name made of the suffix alone, dot first, for a name under it', () => {
    expect(evaluateNetworkPolicy(policy({ domain: '*.example.com', action: 'allow' }), '.example.com')).toBe('deny');
  });

  it('ignores blanks around the asked name', () => {
    expect(evaluateNetworkPolicy(policy({ domain: 'a.com', action: 'allow' }), ' a.com\t')).toBe('allow');
  });

  it('folds case to lower case only: a name that upper-cases to an allowed one is not it', () => {
    // 'ß'.toUpperCase() is 'SS': folding to upper case would let `ß.com` through an allow of `ss.com`.
    expect(evaluateNetworkPolicy(policy({ domain: 'ss.com', action: 'allow' }), 'ß.com')).toBe('deny');
  });

  it('adds only allows with include: defaults', () => {
    const p = policy({ include: 'defaults', action: 'deny' });
    for (const host of ['github.com', 'api.github.com', 'registry.npmjs.org', 'pypi.org', 'files.pythonhosted.org',
      'registry-1.docker.io', 'api.openai.com', 'api.anthropic.com']) {
      expect(evaluateNetworkPolicy(p, host), host).toBe('allow');
    }
    expect(evaluateNetworkPolicy(p, 'example.com')).toBe('deny');
  });

  it('lets an explicit deny override a default of the same specificity', () => {
    const p = policy({ include: 'defaults' }, { domain: 'github.com', action: 'deny' });
    expect(evaluateNetworkPolicy(p, 'github.com')).toBe('deny');
    expect(evaluateNetworkPolicy(p, 'api.github.com')).toBe('allow');
  });

  it('keeps defaults more specific than a * deny', () => {
    const p = policy({ domain: '*', action: 'deny' }, { include: 'defaults' });
    expect(evaluateNetworkPolicy(p, 'pypi.org')).toBe('allow');
    expect(evaluateNetworkPolicy(p, 'example.com')).toBe('deny');
  });

  it('has a default list of well-formed patterns', () => {
    expect(() => validateNetworkPolicy({ rules: DEFAULT_ALLOWED_DOMAINS.map((domain) => ({ domain, action: 'allow' })) }))
      .not.toThrow();
  });
});

describe('SpritePolicies.setNetwork', () => {
  it('makes the policy readable in the sprite, read-only, and replaces it on update', async () => {
    const vfs = Vfs.skeleton();
    const policies = new SpritePolicies(vfsMachineFs(vfs));
    await policies.setNetwork({ rules: [{ domain: 'a.com', action: 'allow' }] });
    await policies.setNetwork({ rules: [{ include: 'defaults' }] });
    expect(NETWORK_POLICY_PATH).toBe('/.sprite/policy/network.json');
    expect(JSON.parse(new TextDecoder().decode(vfs.readFile(NETWORK_POLICY_PATH)))).toEqual({ rules: [{ include: 'defaults' }] });
    expect(vfs.stat(NETWORK_POLICY_PATH).mode).toBe(0o444);
  });
});
