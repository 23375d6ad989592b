/**
 * The words the Kubernetes runtime gives a failed API call (kubeErrorText, kubeUnavailable): the API's Status
 * message, a refused exec handshake, a connection that no one answers.
 */
import { describe, expect, it } from 'vitest';
import { ModelError } from '../../core/errors.ts';
import { kubeErrorText, kubeUnavailable } from './kubernetes.ts';

describe('kubeErrorText', () => {
  it("gives an HTTP answer's code and the API's Status message (a 403 names verb, resource and user)", () => {
    const body = JSON.stringify({ kind: 'Status', message: 'pods is forbidden: User "x" cannot create resource "pods" in API group "" in the namespace "n"', code: 403 });
    expect(kubeErrorText({ code: 403, body, message: 'HTTP-Code: 403' })).toBe(
      'HTTP 403: pods is forbidden: User "x" cannot create resource "pods" in API group "" in the namespace "n"',
    );
    expect(kubeErrorText({ code: 404, body: { message: 'pods "a" not found' } })).toBe('HTTP 404: pods "a" not found');
  });

  it('gives the connection error code when the API does not answer (fetch cause, or a ws ErrorEvent)', () => {
    expect(kubeErrorText(Object.assign(new Error('fetch failed'), { cause: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 10.201.0.1:6443' } }))).toBe(
      'ECONNREFUSED (connect ECONNREFUSED 10.201.0.1:6443)',
    );
    expect(kubeErrorText({ message: 'connect ECONNREFUSED 10.201.0.1:6443', error: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 10.201.0.1:6443' } })).toBe(
      'ECONNREFUSED (connect ECONNREFUSED 10.201.0.1:6443)',
    );
    expect(kubeErrorText({ message: 'Unexpected server response: 500' })).toBe('Unexpected server response: 500');
  });
});

describe('kubeUnavailable', () => {
  it('is a sprite_unavailable ModelError (503) saying what was asked, of which API, and marked unavailable', () => {
    const err = kubeUnavailable('cannot read pod sprite-a in namespace n', Object.assign(new Error('fetch failed'), { cause: { code: 'ECONNREFUSED' } }), 'https://10.201.0.1:6443');
    expect(err).toBeInstanceOf(ModelError);
    expect(err.kind).toBe('sprite_unavailable');
    expect(err.message).toBe('cannot read pod sprite-a in namespace n: the Kubernetes API at https://10.201.0.1:6443 answered ECONNREFUSED (fetch failed)');
    expect((err as { unavailable?: boolean }).unavailable).toBe(true);
  });
});
