/**
 * A container sprite looks like a Sprite from inside: the `/.sprite` tree the agent installs (llm.txt, version.txt,
 * docs/, bin/sprite-env answering from the model, curl-sprite-api without the image having curl, sprite-browser,
 * logs/services the sprite user's), the exec environment of a fresh
 * Sprite with `env` replacing it whole, status `cold` then `running` for a polling client, and the `url` from the
 * API reaching a `python3 -m http.server 8080` service with every HTTP client installed here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, execQuery, wsExec, TOKEN } from '../support/server.ts';
import { defaultDeps, startServer, type RunningServer } from '../../src/server/server.ts';
import { openMachineFactory } from '../../src/server/machines/index.ts';
import { SystemClock } from '../../src/server/core/clock.ts';
import { SequentialIds } from '../../src/server/core/ids.ts';
import { LLM_TXT, SPRITE_BROWSER_SCRIPT, VERSION_TEXT } from '../../src/protocol/sprite-tree.ts';
import { AGENT_CONTEXT_MD } from '../../src/protocol/sprite-docs.ts';
import { envInside, FRESH_ENV, linesInside } from '../support/exec-environment.ts';
import { createAndPoll, distinct } from '../support/status-poll.ts';
import { getWithEveryClient, removeBuiltClients, reportSkips } from '../support/url-clients.ts';
import { announceSkip, cleanNamespace, testContainer } from './support.ts';

const NAMESPACE = 'ctest-inside';
const skip = await announceSkip('container sprite inside');
let srv: RunningServer;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  if (skip) return;
  await cleanNamespace(NAMESPACE);
  const clock = new SystemClock();
  const machines = await openMachineFactory('container', { clock, container: testContainer(NAMESPACE) });
  srv = await startServer(defaultDeps({ clock, ids: new SequentialIds(), machines, token: TOKEN }));
  call = api(srv.url);
}, 120_000);
afterAll(async () => {
  if (srv) for (const name of ['inside', 'poller']) await call('DELETE', `/v1/sprites/${name}`).catch(() => undefined);
  await srv?.close();
  await removeBuiltClients();
});

describe.skipIf(skip)('a container sprite from inside', () => {
  it('status: cold in the create answer, then running for a polling client', async () => {
    const seen = await createAndPoll(srv.url, 'poller', () => new Promise((r) => setTimeout(r, 100)));
    expect(distinct(seen.statuses)).toEqual(['cold', 'running']);
  }, 60_000);

  it('the /.sprite tree: llm.txt, version.txt, bin/sprite-env (working), logs/services', async () => {
    expect((await call('POST', '/v1/sprites', { name: 'inside' })).status).toBe(201);
    expect(await linesInside(srv.url, 'inside', 'head -1 /.sprite/llm.txt; cat /.sprite/version.txt')).toEqual([LLM_TXT.split('\n')[0], VERSION_TEXT]);
    const st = await linesInside(srv.url, 'inside', 'stat -c "%n %U %a" /.sprite/llm.txt /.sprite/bin/sprite-env /.sprite/logs/services');
    expect(st).toEqual(['/.sprite/llm.txt root 644', '/.sprite/bin/sprite-env root 755', '/.sprite/logs/services sprite 755']);
    const r = await wsExec(srv.url, `/v1/sprites/inside/exec?${execQuery(['bash', '-c', `/.sprite/bin/sprite-env curl -X POST /v1/tasks -d '{"name":"t1","expire":"5m"}'`])}`);
    expect(r.exitCode).toBe(0);
    expect((await call('GET', '/v1/sprites/inside/tasks/t1')).status).toBe(200);
  }, 60_000);

  it('/.sprite/docs (root’s, 0644; languages.md lists what the image has), sprite-env info/version/--help, curl-sprite-api without curl, sprite-browser', async () => {
    const st = await linesInside(srv.url, 'inside', 'cd /.sprite/docs && stat -c "%n %U %a" . agent-context.md checkpoints.md languages.md networking.md services.md');
    expect(st).toEqual(['. root 755', ...['agent-context.md', 'checkpoints.md', 'languages.md', 'networking.md', 'services.md'].map((f) => `${f} root 644`)]);
    expect((await wsExec(srv.url, `/v1/sprites/inside/exec?${execQuery(['cat', '/.sprite/docs/agent-context.md'])}`)).stdout).toBe(AGENT_CONTEXT_MD);
    const tools = await linesInside(srv.url, 'inside', "sed -n 's/^| \\([a-z0-9]*\\) | \\(\\/[^ ]*\\) |$/\\1 \\2/p' /.sprite/docs/languages.md");
    expect(tools).toContain('python3 /usr/bin/python3');
    expect(tools).toContain('node /usr/local/bin/node');
    expect(tools.some((t) => t.startsWith('curl '))).toBe(false);

    const sprite = (await call('GET', '/v1/sprites/inside')).json;
    const info = await linesInside(srv.url, 'inside', 'sprite-env info; sprite-env version; sprite-env checkpoints --help | head -1');
    expect(JSON.parse(info[0]!)).toEqual({ sprite_name: 'inside', sprite_id: sprite.id, organization: sprite.organization, sprite_url: sprite.url, version: VERSION_TEXT });
    expect(info.slice(1)).toEqual([VERSION_TEXT, 'usage: sprite-env checkpoints <command> [args]']);
    // The test image has no curl: the agent answers curl-sprite-api itself.
    const csa = await wsExec(srv.url, `/v1/sprites/inside/exec?${execQuery(['bash', '-c', `command -v curl; curl-sprite-api -X POST /v1/tasks -d '{"name":"t2","expire":"5m"}'`])}`);
    expect([csa.exitCode, JSON.parse(csa.stdout).name]).toEqual([0, 't2']);
    expect((await call('GET', '/v1/sprites/inside/tasks/t2')).status).toBe(200);
    const browser = await wsExec(srv.url, `/v1/sprites/inside/exec?${execQuery(['bash', '-c', 'sprite-browser https://example.com; echo "rc=$?"; cmp -s /usr/local/bin/sprite-browser /.sprite/bin/sprite-browser && echo same'])}`);
    expect([browser.stdout, browser.stderr]).toEqual(['rc=0\nsame\n', 'sprite-browser: not opened: https://example.com (spritzer attaches no browser to a sprite)\n']);
    expect((await wsExec(srv.url, `/v1/sprites/inside/exec?${execQuery(['cat', '/.sprite/bin/sprite-browser'])}`)).stdout).toBe(SPRITE_BROWSER_SCRIPT);
  }, 60_000);

  it('the exec environment of a fresh Sprite; env replaces it whole', async () => {
    expect(await envInside(srv.url, 'inside')).toEqual(FRESH_ENV);
    expect(await envInside(srv.url, 'inside', { tty: true })).toEqual({ ...FRESH_ENV, TERM: 'xterm-256color' });
    expect(await envInside(srv.url, 'inside', { env: ['API_KEY=k1'] })).toEqual({ API_KEY: 'k1', PWD: '/home/sprite' });
    expect((await linesInside(srv.url, 'inside', 'id; whoami; hostname; pwd')).slice(1)).toEqual(['sprite', 'inside', '/home/sprite']);
  }, 60_000);

  it('the url reaches python3 -m http.server 8080 with every client; 401 without the token', async () => {
    const url: string = (await call('GET', '/v1/sprites/inside')).json.url;
    expect((await call('PUT', '/v1/sprites/inside/fs/write?path=/home/sprite/www/index.html&mkdirParents=true', 'hello from index\n')).status).toBe(200);
    const svc = await call('PUT', '/v1/sprites/inside/services/web?duration=0', { cmd: 'python3', args: ['-m', 'http.server', '8080', '--bind', '127.0.0.1', '--directory', '/home/sprite/www'], http_port: 8080 });
    expect(svc.status).toBe(200);
    for (let i = 0; i < 100 && (await fetch(`${url}/index.html`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status === 502; i++) await new Promise((r) => setTimeout(r, 100));
    const got = reportSkips(await getWithEveryClient(`${url}/index.html`, TOKEN), 'container sprite url');
    expect(got.map((r) => [r.client, r.status, r.body])).toEqual(got.map((r) => [r.client, 200, 'hello from index\n']));
    const anon = reportSkips(await getWithEveryClient(`${url}/index.html`), 'container sprite url');
    expect(anon.map((r) => [r.client, r.status])).toEqual(anon.map((r) => [r.client, 401]));
  }, 120_000);
});
