import http from 'node:http';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURL_SPRITE_API_HELP, curlCallOf, curlSpriteApiMain } from './curl-sprite-api.ts';
import { curlSpriteApiScript, SPRITE_BROWSER_SCRIPT } from '../protocol/sprite-tree.ts';

describe('curl-sprite-api without curl: the command line', () => {
  const call = (argv: string[]) => curlCallOf(argv, 'HINT');

  it('the first /path or URL is the target; GET, or POST with data; JSON content type unless a -H names one', () => {
    expect(call(['/v1/services']).req).toEqual({ method: 'GET', path: '/v1/services', body: undefined, headers: { 'Content-Type': 'application/json' } });
    expect(call(['-X', 'PUT', '/v1/services/web?duration=1s', '-d', '{"cmd":"x"}']).req).toMatchObject({ method: 'PUT', path: '/v1/services/web?duration=1s', body: '{"cmd":"x"}' });
    expect(call(['-d', '{}', '/v1/tasks']).req.method).toBe('POST');
    expect(call(['-H', 'content-type: text/plain', '-d', 'x', '/v1/tasks']).req.headers).toEqual({ 'content-type': 'text/plain' });
    expect(call(['http://sprite/v1/checkpoints?history=v1']).req.path).toBe('/v1/checkpoints?history=v1');
    expect(call(['--url', '/v1/tasks']).req.path).toBe('/v1/tasks');
    expect(call(['-s']).req.path).toBe('/');
  });

  it('joins -d values with & as curl does; -XPOST, -sS, -fsS clusters; --data-raw keeps a leading @', () => {
    expect(call(['-d', 'a=1', '-d', 'b=2', '/x']).req.body).toBe('a=1&b=2');
    expect(call(['-XDELETE', '/v1/tasks/t']).req.method).toBe('DELETE');
    expect(call(['-fsS', '/x'])).toMatchObject({ fail: true, silent: true, showError: true, include: false });
    expect(call(['-sX', 'POST', '/x']).req.method).toBe('POST');
    expect(call(['--data-raw', '@x', '/x']).req.body).toBe('@x');
  });

  it('refuses loudly what it cannot do, naming the option and the hint', () => {
    expect(() => call(['-v', '/x'])).toThrow('curl-sprite-api: the option -v is not available without curl; HINT');
    expect(() => call(['--compressed', '/x'])).toThrow('curl-sprite-api: the option --compressed is not available without curl; HINT');
    expect(() => call(['-o', '/tmp/f', '/x'])).toThrow(/the option -o/);
    expect(() => call(['-d', '@body.json', '/x'])).toThrow(/-d @FILE/);
    expect(() => call(['/a', '/b'])).toThrow(/a second URL/);
    expect(() => call(['-X'])).toThrow('curl-sprite-api: option -X: requires parameter');
  });
});

describe('curl-sprite-api without curl, against an API', () => {
  let dir: string;
  let sock: string;
  let server: http.Server;
  const got: Array<{ method?: string; url?: string; type?: string; body: string }> = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'curl-sprite-api-'));
    sock = join(dir, 'api.sock');
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        got.push({ method: req.method, url: req.url, type: req.headers['content-type'], body });
        if (req.url === '/v1/missing') {
          res.writeHead(404, { 'Content-Type': 'application/json' });
          return void res.end('{"error":"not found"}');
        }
        res.writeHead(200, { 'Content-Type': 'application/json', 'X-A': 'b' });
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => server.listen(sock, r));
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  const run = async (argv: string[], target = sock) => {
    let stdout = '';
    let stderr = '';
    const code = await curlSpriteApiMain(argv, target, { stdout: { write: (c) => (stdout += String(c)) }, stderr: { write: (c) => (stderr += c) } }, 'HINT');
    return { code, stdout, stderr };
  };

  it('--help, -h and no argument print the help, exit 0', async () => {
    for (const argv of [[], ['--help'], ['-X', 'GET', '-h']]) expect(await run(argv)).toEqual({ code: 0, stdout: CURL_SPRITE_API_HELP, stderr: '' });
  });

  it('sends the request with the JSON content type and prints the body as it came (curl prints no newline of its own)', async () => {
    expect(await run(['-X', 'POST', '/v1/tasks', '-d', '{"name":"t"}'])).toEqual({ code: 0, stdout: '{"ok":true}', stderr: '' });
    expect(got.at(-1)).toEqual({ method: 'POST', url: '/v1/tasks', type: 'application/json', body: '{"name":"t"}' });
  });

  it('any HTTP answer is exit 0; -f makes 400 and above exit 22 without the body; -i prints the status line and headers', async () => {
    expect(await run(['/v1/missing'])).toEqual({ code: 0, stdout: '{"error":"not found"}', stderr: '' });
    expect(await run(['-f', '/v1/missing'])).toEqual({ code: 22, stdout: '', stderr: 'curl: (22) The requested URL returned error: 404\n' });
    expect(await run(['-fs', '/v1/missing'])).toEqual({ code: 22, stdout: '', stderr: '' });
    const inc = await run(['-i', '/v1/x']);
    expect(inc.stdout).toMatch(/^HTTP\/1\.1 200 OK\r\n(?:.+\r\n)*X-A: b\r\n(?:.+\r\n)*\r\n\{"ok":true\}$/);
  });

  it('a refused option is exit 2 and sends nothing; no API is exit 7 (silent with -s)', async () => {
    const before = got.length;
    expect(await run(['-v', '/x'])).toEqual({ code: 2, stdout: '', stderr: 'curl-sprite-api: the option -v is not available without curl; HINT\n' });
    expect(got.length).toBe(before);
    const gone = await run(['/x'], join(dir, 'none.sock'));
    expect([gone.code, gone.stderr]).toEqual([7, expect.stringMatching(/^curl-sprite-api: cannot reach .*none\.sock: /)]);
    expect((await run(['-s', '/x'], join(dir, 'none.sock'))).stderr).toBe('');
  });
});

describe('the installed scripts, run by sh', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sprite-scripts-'));
    await mkdir(join(dir, 'bin'));
    // A stand-in for curl that prints its arguments, one a line; and one for the agent's fallback.
    await writeFile(join(dir, 'bin/curl'), '#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n');
    await writeFile(join(dir, 'node'), '#!/bin/sh\necho "fallback $*"\n');
    await chmod(join(dir, 'bin/curl'), 0o755);
    await chmod(join(dir, 'node'), 0o755);
    await writeFile(join(dir, 'curl-sprite-api'), curlSpriteApiScript(join(dir, 'node')));
    await writeFile(join(dir, 'sprite-browser'), SPRITE_BROWSER_SCRIPT);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const sh = (script: string, args: string[], path: string) => spawnSync('sh', [join(dir, script), ...args], { encoding: 'utf8', env: { PATH: path } });
  const withCurl = () => `${dir}/bin:/usr/bin:/bin`;

  it('curl-sprite-api with curl: the socket, the JSON type, the first /path (not an option value) as http://sprite/path', () => {
    const lines = (args: string[]) => sh('curl-sprite-api', args, withCurl()).stdout.trimEnd().split('\n');
    const head = ['--unix-socket', '/.sprite/api.sock', '-H', 'Content-Type: application/json'];
    expect(lines(['/v1/services'])).toEqual([...head, 'http://sprite/v1/services']);
    expect(lines(['-X', 'PUT', '/v1/services/w', '-d', '/x'])).toEqual([...head, '-X', 'PUT', 'http://sprite/v1/services/w', '-d', '/x']);
    expect(lines(['-o', '/tmp/out', '/v1/tasks'])).toEqual([...head, '-o', '/tmp/out', 'http://sprite/v1/tasks']);
    expect(lines(['--url', '/v1/tasks'])).toEqual([...head, '--url', 'http://sprite/v1/tasks']);
    expect(lines(['http://sprite/v1/a'])).toEqual([...head, 'http://sprite/v1/a']);
    expect(lines(['-s'])).toEqual([...head, '-s', 'http://sprite']);
  });

  it('curl-sprite-api: --help, -h or no argument, and no curl on PATH, run the agent', () => {
    expect(sh('curl-sprite-api', ['-X', 'GET', '--help'], withCurl()).stdout).toBe('fallback /.sprite/agent/agent.mjs --curl-sprite-api --help\n');
    expect(sh('curl-sprite-api', [], withCurl()).stdout).toBe('fallback /.sprite/agent/agent.mjs --curl-sprite-api\n');
    const noCurl = pathWithoutCurl();
    expect(sh('curl-sprite-api', ['/v1/services'], noCurl).stdout).toBe('fallback /.sprite/agent/agent.mjs --curl-sprite-api /v1/services\n');
  });

  it('sprite-browser: says on stderr that nothing was opened, naming the URL, and exits 0; --help to stdout', () => {
    const r = sh('sprite-browser', ['--new-window', 'https://example.com/a b'], withCurl());
    expect([r.status, r.stdout, r.stderr]).toEqual([0, '', 'sprite-browser: not opened: https://example.com/a b (spritzer attaches no browser to a sprite)\n']);
    expect(sh('sprite-browser', [], withCurl()).stderr).toBe('sprite-browser: not opened: about:blank (spritzer attaches no browser to a sprite)\n');
    const help = sh('sprite-browser', ['-h'], withCurl());
    expect([help.status, help.stdout.split('\n')[0], help.stderr]).toEqual([0, 'usage: sprite-browser [URL]', '']);
  });

  /** A PATH without curl: a directory holding nothing but a link to sh. */
  function pathWithoutCurl(): string {
    const only = join(dir, 'only-sh');
    execFileSync('sh', ['-c', `mkdir -p '${only}' && ln -sf "$(command -v sh)" '${only}/sh'`]);
    return only;
  }
});
