import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { infoOf, spriteEnvMain } from './sprite-env.ts';
import { apiPathOf, commandOf, envPairs, requestOf, UsageError, USAGE } from './sprite-env-commands.ts';

describe('sprite-env command lines', () => {
  it('services create: --cmd, comma-separated --args and --needs, --http-port, repeated --env, --dir, --duration', () => {
    const r = requestOf(['services', 'create', 'web', '--cmd', 'python3', '--args', '-m,http.server,8080', '--http-port', '8080', '--env', 'A=1', '--env', 'B=x=y', '--needs', 'db', '--dir', '/srv', '--duration', '2s']);
    expect(r.method).toBe('PUT');
    expect(r.path).toBe('/v1/services/web?duration=2s');
    expect(JSON.parse(r.body!)).toEqual({ cmd: 'python3', args: ['-m', 'http.server', '8080'], needs: ['db'], http_port: 8080, env: { A: '1', B: 'x=y' }, dir: '/srv' });
  });

  it('services create --no-stream asks for no streaming window; with --duration it is a usage error', () => {
    expect(requestOf(['services', 'create', 'web', '--cmd', 'sleep', '--no-stream']).path).toBe('/v1/services/web?duration=0s');
    expect(() => requestOf(['services', 'create', 'web', '--cmd', 'sleep', '--no-stream', '--duration', '2s'])).toThrow(/exclude each other/);
    expect(() => requestOf(['services', 'create', 'web', '--cmd', 'sleep', '--no-stream=yes'])).toThrow(/takes no value/);
  });

  it('--env takes comma-separated pairs, a comma starting a pair only before NAME=', () => {
    expect(envPairs(['A=1,B=2', 'C=x,y', 'D=a,1=c,E_2=3'], '')).toEqual({ A: '1', B: '2', C: 'x,y', D: 'a,1=c', E_2: '3' });
    expect(() => envPairs(['=1'], '')).toThrow(/--env wants K=V/);
    expect(() => envPairs(['A'], '')).toThrow(/--env wants K=V/);
  });

  it('the other service verbs, signal among them', () => {
    expect(requestOf(['services', 'list'])).toMatchObject({ method: 'GET', path: '/v1/services' });
    expect(requestOf(['services'])).toMatchObject({ method: 'GET', path: '/v1/services' });
    expect(requestOf(['services', 'get', 'a b'])).toMatchObject({ method: 'GET', path: '/v1/services/a%20b' });
    expect(requestOf(['services', 'start', 'web', '--duration', '1s'])).toMatchObject({ method: 'POST', path: '/v1/services/web/start?duration=1s' });
    expect(requestOf(['services', 'stop', 'web', '--timeout', '3s'])).toMatchObject({ method: 'POST', path: '/v1/services/web/stop?timeout=3s' });
    expect(requestOf(['services', 'restart', 'web'])).toMatchObject({ method: 'POST', path: '/v1/services/web/restart' });
    expect(requestOf(['services', 'delete', 'web'])).toMatchObject({ method: 'DELETE', path: '/v1/services/web' });
    expect(requestOf(['services', 'logs', 'web', '--lines', '5'])).toMatchObject({ method: 'GET', path: '/v1/services/web/logs?lines=5' });
    const sig = requestOf(['services', 'signal', 'web', 'HUP']);
    expect([sig.method, sig.path, JSON.parse(sig.body!)]).toEqual(['POST', '/v1/services/signal', { name: 'web', signal: 'HUP' }]);
  });

  it('checkpoints: list (and --history), get, create, restore', () => {
    expect(requestOf(['checkpoints', 'list'])).toMatchObject({ method: 'GET', path: '/v1/checkpoints' });
    expect(requestOf(['checkpoints'])).toMatchObject({ method: 'GET', path: '/v1/checkpoints' });
    expect(requestOf(['checkpoints', 'list', '--history', 'v2'])).toMatchObject({ method: 'GET', path: '/v1/checkpoints?history=v2' });
    expect(requestOf(['checkpoints', 'get', 'v3'])).toMatchObject({ method: 'GET', path: '/v1/checkpoints/v3' });
    expect(requestOf(['checkpoints', 'create', '--comment', 'c1'])).toMatchObject({ method: 'POST', path: '/v1/checkpoint', body: '{"comment":"c1"}' });
    expect(requestOf(['checkpoints', 'create'])).toMatchObject({ method: 'POST', path: '/v1/checkpoint', body: '{}' });
    expect(requestOf(['checkpoints', 'restore', 'v1'])).toMatchObject({ method: 'POST', path: '/v1/checkpoints/v1/restore' });
  });

  it('info and version read the sprite itself (GET /v1/sprite), printed in their own forms', () => {
    expect(commandOf(['info'])).toEqual({ kind: 'request', req: { method: 'GET', path: '/v1/sprite' }, print: 'info' });
    expect(commandOf(['version'])).toEqual({ kind: 'request', req: { method: 'GET', path: '/v1/sprite' }, print: 'version' });
    expect(infoOf({ name: 'box', id: 'sprite-1', organization: 'personal', url: 'http://127.0.0.1:5000', status: 'running' }, 'v0.0.1-rc46')).toBe(
      '{"sprite_name":"box","sprite_id":"sprite-1","organization":"personal","sprite_url":"http://127.0.0.1:5000","version":"v0.0.1-rc46"}\n',
    );
  });

  it('curl: -X, -d (POST by default with data), -H, long forms, a URL or a relative path', () => {
    expect(requestOf(['curl', '-X', 'POST', '/v1/tasks', '-d', '{"name":"t"}'])).toMatchObject({ method: 'POST', path: '/v1/tasks', body: '{"name":"t"}' });
    expect(requestOf(['curl', 'v1/tasks'])).toMatchObject({ method: 'GET', path: '/v1/tasks' });
    expect(requestOf(['curl', '-d', 'x', '-H', 'Content-Type: text/plain', '/v1/tasks']).headers).toEqual({ 'Content-Type': 'text/plain' });
    expect(requestOf(['curl', '--request=PUT', '--data', '{}', '--header', 'A: b', '/v1/tasks/t'])).toMatchObject({ method: 'PUT', path: '/v1/tasks/t', body: '{}', headers: { A: 'b' } });
    expect(requestOf(['curl', 'http://sprite/v1/services?x=1'])).toMatchObject({ path: '/v1/services?x=1' });
    expect(apiPathOf('/policy/network')).toBe('/policy/network');
  });

  it('bad usage throws a message and the usage of the command it got to', () => {
    const usageOf = (argv: string[]) => {
      try {
        commandOf(argv);
      } catch (err) {
        return [(err as UsageError).message, (err as UsageError).usage.split('\n')[0]];
      }
      return undefined;
    };
    expect(usageOf(['services', 'create', 'web'])).toEqual(['sprite-env services create: --cmd is required', 'usage: sprite-env services create <name> [options]']);
    expect(usageOf(['services', 'get'])).toEqual(['sprite-env services get: missing <name>', 'usage: sprite-env services get <name>']);
    expect(usageOf(['services', 'signal', 'web'])).toEqual(['sprite-env services signal: missing <signal>', 'usage: sprite-env services signal <name> <signal>']);
    expect(usageOf(['services', 'get', 'a', 'b'])).toEqual(['sprite-env services get: unexpected argument "b"', 'usage: sprite-env services get <name>']);
    expect(usageOf(['services', 'frob'])).toEqual(['sprite-env services: unknown command "frob"', 'usage: sprite-env services <command> [args]']);
    expect(usageOf(['bogus'])).toEqual(['sprite-env: unknown command "bogus"', 'usage: sprite-env <command> [args]']);
    expect(usageOf([])).toEqual(['sprite-env: missing command', 'usage: sprite-env <command> [args]']);
    expect(usageOf(['services', 'create', 'web', '--cmd'])).toEqual(['sprite-env services create: --cmd needs a value', 'usage: sprite-env services create <name> [options]']);
    expect(usageOf(['services', 'list', '--all'])).toEqual(['sprite-env services list: unknown option --all', 'usage: sprite-env services list']);
    expect(usageOf(['checkpoints', 'create', '--comment', 'a', '--comment', 'b'])).toEqual(['sprite-env checkpoints create: --comment given twice', 'usage: sprite-env checkpoints create [options]']);
    expect(usageOf(['services', 'create', 'web', '--cmd', 'x', '--http-port', 'web'])?.[0]).toMatch(/--http-port wants a port number/);
  });

  it('--help and -h at every level give that level’s usage; a flag’s value or what follows -- is no help request', () => {
    const help = (argv: string[]) => {
      const c = commandOf(argv);
      return c.kind === 'help' ? c.text.split('\n')[0] : c.kind;
    };
    for (const h of ['--help', '-h', 'help']) expect(help([h])).toBe('usage: sprite-env <command> [args]');
    expect(help(['services', '--help'])).toBe('usage: sprite-env services <command> [args]');
    expect(help(['checkpoints', 'help'])).toBe('usage: sprite-env checkpoints <command> [args]');
    expect(help(['services', 'create', '-h'])).toBe('usage: sprite-env services create <name> [options]');
    expect(help(['services', 'create', 'web', '--cmd', 'x', '--help'])).toBe('usage: sprite-env services create <name> [options]');
    expect(help(['checkpoints', 'restore', '--help'])).toBe('usage: sprite-env checkpoints restore <id>');
    expect(help(['info', '-h'])).toBe('usage: sprite-env info');
    expect(help(['version', '--help'])).toBe('usage: sprite-env version');
    expect(help(['curl', '--help'])).toBe('usage: sprite-env curl <path> [options]');
    expect(help(['services', 'create', 'web', '--cmd', 'x', '--args', '-h'])).toBe('request');
    expect(help(['services', 'get', '--', '-h'])).toBe('request');
  });

  it('every command’s help lists its options and the group and top-level helps name every command', () => {
    const text = (argv: string[]) => (commandOf(argv) as { text: string }).text;
    expect(text(['services', 'create', '--help'])).toContain('--no-stream');
    expect(text(['curl', '--help'])).toContain('-X, --request METHOD');
    for (const verb of ['list', 'get', 'create', 'delete', 'start', 'restart', 'stop', 'signal', 'logs']) expect(text(['services', '--help'])).toMatch(new RegExp(`^  ${verb}\\b`, 'm'));
    for (const verb of ['list', 'get', 'create', 'restore']) expect(text(['checkpoints', '--help'])).toMatch(new RegExp(`^  ${verb}\\b`, 'm'));
    for (const word of ['info', 'version', 'services', 'checkpoints', 'curl']) expect(USAGE).toMatch(new RegExp(`^  ${word}\\b`, 'm'));
  });
});

describe('sprite-env against an API', () => {
  let dir: string;
  let sock: string;
  let server: http.Server;
  const seen: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sprite-env-'));
    sock = join(dir, 'api.sock');
    server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.setHeader('Sprite-Version', 'v9');
      if (req.url === '/v1/sprite') return void res.end(JSON.stringify({ name: 'box', id: 'id-1', organization: 'org', url: 'http://h:1', status: 'running' }));
      if (req.url === '/v1/checkpoints/v1/restore') {
        res.setHeader('Content-Type', 'application/x-ndjson');
        res.write('{"type":"info","data":"Stopping"}\n');
        return void res.end('{"type":"error","error":"Failed to restore checkpoint: no"}\n');
      }
      if (req.url === '/v1/checkpoints?history=v1') {
        res.setHeader('Content-Type', 'text/plain');
        return void res.end('v2\nv3\n');
      }
      res.statusCode = 404;
      res.setHeader('Content-Type', 'application/json');
      res.end('{"error":"not found"}');
    });
    await new Promise<void>((r) => server.listen(sock, r));
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  const run = async (argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await spriteEnvMain(argv, sock, { stdout: { write: (c) => (stdout += String(c)) }, stderr: { write: (c) => (stderr += c) } });
    return { code, stdout, stderr };
  };

  it('info prints one line of JSON from the sprite and the Sprite-Version header; version the header alone', async () => {
    expect(await run(['info'])).toEqual({ code: 0, stdout: '{"sprite_name":"box","sprite_id":"id-1","organization":"org","sprite_url":"http://h:1","version":"v9"}\n', stderr: '' });
    expect(await run(['version'])).toEqual({ code: 0, stdout: 'v9\n', stderr: '' });
  });

  it('help goes to stdout with exit 0; a usage error to stderr with exit 2, sending nothing', async () => {
    const before = seen.length;
    const help = await run(['services', 'signal', '--help']);
    expect([help.code, help.stdout.split('\n')[0], help.stderr]).toEqual([0, 'usage: sprite-env services signal <name> <signal>', '']);
    const bad = await run(['services', 'signal', 'web']);
    expect([bad.code, bad.stdout, bad.stderr.split('\n')[0]]).toEqual([2, '', 'sprite-env services signal: missing <signal>']);
    expect(seen.length).toBe(before);
  });

  it('text answers print as they come; an NDJSON error line fails the command; a non-2xx status is exit 1', async () => {
    expect(await run(['checkpoints', 'list', '--history', 'v1'])).toEqual({ code: 0, stdout: 'v2\nv3\n', stderr: '' });
    const restore = await run(['checkpoints', 'restore', 'v1']);
    expect(restore.code).toBe(1);
    expect(restore.stdout).toBe('{"type":"info","data":"Stopping"}\n{"type":"error","error":"Failed to restore checkpoint: no"}\n');
    expect(restore.stderr).toBe('sprite-env: POST /v1/checkpoints/v1/restore: the operation reported an error\n');
    const missing = await run(['checkpoints', 'get', 'v9']);
    expect([missing.code, JSON.parse(missing.stdout), missing.stderr]).toEqual([1, { error: 'not found' }, 'sprite-env: GET /v1/checkpoints/v9: HTTP 404\n']);
  });

  it('no API: exit 1 naming the socket', async () => {
    let stderr = '';
    const code = await spriteEnvMain(['info'], join(dir, 'nope.sock'), { stdout: { write: () => true }, stderr: { write: (c) => (stderr += c) } });
    expect([code, stderr]).toEqual([1, expect.stringMatching(/^sprite-env: cannot reach .*nope\.sock: /)]);
  });
});
