import { describe, expect, it } from 'vitest';
import { inSandbox, sweepsNamespace } from './pid-namespace.ts';

describe('pid-namespace: where the agent runs', () => {
  it('sweeps as the sandbox launcher starts it (PID 1 or 2, no --root, no --api-socket)', () => {
    expect(sweepsNamespace({ root: '', pid: 2, apiSocket: undefined })).toBe(true);
    expect(sweepsNamespace({ root: '', pid: 1, apiSocket: undefined })).toBe(true);
    expect(inSandbox({ root: '', pid: 2, apiSocket: undefined })).toBe(true);
  });

  it('never sweeps in a container, even as PID 1 (a Kubernetes pod: the exec bridge lives beside the agent)', () => {
    expect(sweepsNamespace({ root: '', pid: 1, apiSocket: '/.sprite/api.sock' })).toBe(false);
    expect(sweepsNamespace({ root: '', pid: 2, apiSocket: '/.sprite/api.sock' })).toBe(false);
    expect(inSandbox({ root: '', pid: 1, apiSocket: '/.sprite/api.sock' })).toBe(false);
  });

  it('never sweeps on the host (--root) nor past PID 2', () => {
    expect(sweepsNamespace({ root: '/tmp/r', pid: 1, apiSocket: undefined })).toBe(false);
    expect(sweepsNamespace({ root: '', pid: 7, apiSocket: undefined })).toBe(false);
  });
});
