import { describe, expect, it } from 'vitest';
import { malformedPathBody, malformedQueryBody, parseRequestTarget } from './request-target.ts';

describe('parseRequestTarget', () => {
  it('parses origin-form, absolute-form and *, and returns null for what is not a URL', () => {
    expect(parseRequestTarget('/v1/sprites?x=1')?.pathname).toBe('/v1/sprites');
    expect(parseRequestTarget('http://example.com/v1/sprites')?.pathname).toBe('/v1/sprites');
    expect(parseRequestTarget('*')).not.toBeNull();
    expect(parseRequestTarget(undefined)?.pathname).toBe('/');
    for (const bad of ['http://[', 'http://[::1/x', 'http://%zz/', 'http://a b/']) expect(parseRequestTarget(bad)).toBeNull();
  });
});

describe('malformedPathBody', () => {
  it('passes paths whose every segment decodes, and names the first segment that does not', () => {
    for (const ok of ['/v1/sprites/a', '/v1/sprites/a%20b/exec', '/v1/sprites/%E2%82%AC', '/']) expect(malformedPathBody(ok)).toBeUndefined();
    for (const [path, segment] of [['/v1/sprites/%ff/exec', '%ff'], ['/v1/sprites/x/exec/%e2%82', '%e2%82'], ['/a/%zz', '%zz'], ['/a/%', '%']]) {
      expect(malformedPathBody(path)).toEqual({
        error: 'invalid_request',
        message: 'malformed percent-encoding in the path',
        errors: [`path segment "${segment}" is not valid percent-encoded UTF-8`],
      });
    }
  });
});

describe('malformedQueryBody', () => {
  it('passes queries whose every name and value decodes, and names the parameter that does not', () => {
    for (const ok of ['', '?', '?path=%2Ftmp%2Fa', 'a=1&b=%E2%82%AC&c', '?x=a+b&y=%25ZZ']) expect(malformedQueryBody(ok)).toBeUndefined();
    for (const [query, name, part] of [['?path=%ZZ', 'path', '%ZZ'], ['a=1&path=%ff', 'path', '%ff'], ['%zz=1', '%zz', '%zz'], ['flag%', 'flag%', 'flag%']]) {
      expect(malformedQueryBody(query)).toEqual({
        error: 'invalid_request',
        message: 'malformed percent-encoding in the query',
        errors: [`query parameter "${name}": "${part}" is not valid percent-encoded UTF-8`],
      });
    }
  });
});
