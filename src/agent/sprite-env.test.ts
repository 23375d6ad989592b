import { describe, expect, it } from 'vitest';
import { requestOf } from './sprite-env.ts';

describe('sprite-env command lines', () => {
  it('services create: --cmd, comma-separated --args and --needs, --http-port, repeated --env, --dir, --duration', () => {
    const r = requestOf(['services', 'create', 'web', '--cmd', 'python3', '--args', '-m,http.server,8080', '--http-port', '8080', '--env', 'A=1', '--env', 'B=x=y', '--needs', 'db', '--dir', '/srv', '--duration', '2s']);
    expect(r.method).toBe('PUT');
    expect(r.path).toBe('/v1/services/web?duration=2s');
    expect(JSON.parse(r.body!)).toEqual({ cmd: 'python3', args: ['-m', 'http.server', '8080'], needs: ['db'], http_port: 8080, env: { A: '1', B: 'x=y' }, dir: '/srv' });
  });

  it('the other service verbs and checkpoints', () => {
    expect(requestOf(['services', 'list'])).toMatchObject({ method: 'GET', path: '/v1/services' });
    expect(requestOf(['services', 'stop', 'web', '--timeout', '3s'])).toMatchObject({ method: 'POST', path: '/v1/services/web/stop?timeout=3s' });
    expect(requestOf(['services', 'restart', 'web'])).toMatchObject({ method: 'POST', path: '/v1/services/web/restart' });
    expect(requestOf(['services', 'delete', 'web'])).toMatchObject({ method: 'DELETE', path: '/v1/services/web' });
    expect(requestOf(['services', 'logs', 'web', '--lines', '5'])).toMatchObject({ method: 'GET', path: '/v1/services/web/logs?lines=5' });
    expect(requestOf(['checkpoints', 'list'])).toMatchObject({ method: 'GET', path: '/v1/checkpoints' });
    expect(requestOf(['checkpoints', 'create', '--comment', 'c1'])).toMatchObject({ method: 'POST', path: '/v1/checkpoint', body: '{"comment":"c1"}' });
  });

  it('curl: -X, -d (POST by default with data), -H', () => {
    expect(requestOf(['curl', '-X', 'POST', '/v1/tasks', '-d', '{"name":"t"}'])).toMatchObject({ method: 'POST', path: '/v1/tasks', body: '{"name":"t"}' });
    expect(requestOf(['curl', 'v1/tasks'])).toMatchObject({ method: 'GET', path: '/v1/tasks' });
    expect(requestOf(['curl', '-d', 'x', '-H', 'Content-Type: text/plain', '/v1/tasks']).headers).toEqual({ 'Content-Type': 'text/plain' });
  });

  it('bad usage throws a message', () => {
    expect(() => requestOf(['services', 'create', 'web'])).toThrow(/--cmd is required/);
    expect(() => requestOf(['services', 'get'])).toThrow(/missing service name/);
    expect(() => requestOf(['bogus'])).toThrow(/usage: sprite-env/);
    expect(() => requestOf(['services', 'create', 'web', '--cmd'])).toThrow(/needs a value/);
  });
});
