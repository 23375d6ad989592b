// rivet's Sandbox Agent SDK (npm sandbox-agent 0.4.2) with its Sprites provider (sandbox-agent/sprites, on
// @fly/sprites 0.1.0), unchanged, against spritzer ($SPRITZER_EXEC), as its docs (docs/deploy/sprites.mdx) drive it:
// SandboxAgent.start({ sandbox: sprites(...) }) creates a sprite, registers the Sandbox Agent server as the sprite's
// HTTP service and starts it; the SDK then talks to that server through the sprite's URL with the Sprites token;
// reconnecting with the sandbox id re-checks the service; destroySandbox() deletes the sprite.
//
// The server the provider starts is `npx -y @sandbox-agent/cli@0.5.0-rc.2 server …` (dist/chunk-7BNDCDDU.js: its
// SANDBOX_AGENT_VERSION), a version the npm registry does not have (it serves 0.4.0 and 0.4.2), and sprites here reach
// no registry: the service is registered and started exactly as the provider does it, and fails in the sprite. Its
// npx is kept offline through the provider's own `env` option, so that it fails at once (ENOTCACHED) instead of
// waiting on a network the sprite does not have. On sandbox and container, the SDK's file and process calls then run
// against the published server of the same release, 0.4.2 (the static binary of @sandbox-agent/cli-linux-x64, which
// the SDK's package-lock already installs), uploaded into the sprite and started as a second service on the port the
// provider's service routes the URL to (clients.json "unavailable" says what this replaces).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { SpritesClient } from '@fly/sprites';
import { SandboxAgent, SandboxAgentError, SandboxDestroyedError } from 'sandbox-agent';
import { sprites } from 'sandbox-agent/sprites';

const BASE = process.env.SPRITES_BASE_URL;
const TOKEN = process.env.SPRITES_TOKEN;
const ENGINE = process.env.SPRITZER_EXEC ?? 'shell';
const client = new SpritesClient(TOKEN, { baseURL: BASE });
const auth = { Authorization: `Bearer ${TOKEN}` };

const SERVER_COMMAND = 'exec npx -y @sandbox-agent/cli@0.5.0-rc.2 server --no-token --host 0.0.0.0 --port 8080';

/** The provider as the docs configure it, on spritzer: token and base URL, a fixed sprite name, npx kept offline. */
function provider(name, extra = {}) {
  return sprites({ token: TOKEN, client: { baseURL: BASE }, env: { npm_config_offline: 'true' }, create: { name }, ...extra });
}

/** GET on spritzer's API: `{ status, body }` (body parsed when JSON). */
async function api(path) {
  const res = await fetch(`${BASE}${path}`, { headers: auth });
  const text = await res.text();
  let body = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}

/** The requests spritzer logged for one sprite's service, oldest first, as "METHOD path-after-sprite status". */
async function serviceRequests(name) {
  const { body } = await api('/_spritzer/requests');
  const prefix = `/v1/sprites/${name}/services/`;
  return body.requests
    .filter((r) => r.path.startsWith(prefix))
    .reverse()
    .map((r) => `${r.method} ${r.path.slice(prefix.length).split('?')[0]} ${r.status}`);
}

async function spriteNames() {
  return (await client.listAllSprites()).map((s) => s.name);
}

test('start creates the sprite and its sandbox-agent service; the URL, reconnect and destroySandbox', async () => {
  const NAME = 'sandbox-agent-life';
  const sprites_ = provider(NAME);
  const sdk = await SandboxAgent.start({ sandbox: sprites_, skipHealthCheck: true });
  try {
    assert.equal(sdk.sandboxId, `sprites/${NAME}`, `start: sandboxId ${sdk.sandboxId}`);
    const service = await api(`/v1/sprites/${NAME}/services/sandbox-agent`);
    assert.equal(service.status, 200, `GET of the service the provider registered: spritzer answered ${service.status} ${JSON.stringify(service.body)}`);
    const { cmd, args, http_port: httpPort } = service.body;
    assert.deepEqual({ cmd, args, httpPort }, { cmd: 'bash', args: ['-lc', `export npm_config_offline='true'; ${SERVER_COMMAND}`], httpPort: 8080 },
      `the service the provider registered, as spritzer answers it: ${JSON.stringify(service.body)}`);

    const sprite = await api(`/v1/sprites/${NAME}`);
    assert.equal(sdk.baseUrl, sprite.body.url, `the SDK's base URL is the sprite's URL: ${sdk.baseUrl} vs ${JSON.stringify(sprite.body)}`);
    // Nothing listens on 8080 (the server could not be installed): the URL's proxy says so, with the token...
    const health = await sdk.getHealth().then((h) => ({ ok: h }), (e) => e);
    assert.ok(health instanceof SandboxAgentError && health.status === 502 && health.problem?.error === 'bad_gateway',
      `getHealth through the sprite URL with nothing listening: ${health?.constructor?.name} ${health?.status} ${JSON.stringify(health?.problem ?? health)}`);
    // ... and refuses a request without it.
    const anonymous = await fetch(`${sdk.baseUrl}/v1/health`);
    assert.equal(anonymous.status, 401, `the sprite URL without the token: spritzer answered ${anonymous.status} ${await anonymous.text()}`);

    // Reconnecting checks the sprite and the service again; the service is already what the provider wants, so it
    // is not registered a second time.
    const again = await SandboxAgent.start({ sandbox: sprites_, sandboxId: sdk.sandboxId, skipHealthCheck: true });
    await again.dispose();
    assert.equal(again.sandboxId, sdk.sandboxId, `reconnect: sandboxId ${again.sandboxId}`);
    const requests = await serviceRequests(NAME);
    assert.deepEqual(requests.filter((r) => r.startsWith('PUT ')), ['PUT sandbox-agent 200'],
      `the provider's upserts of its service (an answer that differs from what it asked for makes it register again): ${JSON.stringify(requests)}`);
    assert.ok(requests.filter((r) => r === 'GET sandbox-agent 200').length >= 3, `reconnect re-reads the service: ${JSON.stringify(requests)}`);
  } finally {
    await sdk.destroySandbox();
  }
  assert.ok(!(await spriteNames()).includes(NAME), 'destroySandbox deletes the sprite');
});

test('reconnect to a sprite that is gone', async (t) => {
  const NAME = 'sandbox-agent-gone';
  await client.createSprite(NAME);
  await client.deleteSprite(NAME);
  const answer = await api(`/v1/sprites/${NAME}`);
  assert.deepEqual(answer, { status: 404, body: { error: 'sprite not found' } }, `GET of a deleted sprite: spritzer answered ${JSON.stringify(answer)}`);
  const error = await SandboxAgent.start({ sandbox: provider(NAME), sandboxId: `sprites/${NAME}`, skipHealthCheck: true }).then(() => undefined, (e) => e);
  if (error instanceof SandboxDestroyedError) return;
  // The provider recognises a missing sprite by @fly/sprites 0.0.1's message ("Sprite not found: NAME"); 0.1.0 raises
  // an APIError carrying the API's own body instead, so the SDK passes that on.
  if (error?.name === 'APIError' && error.statusCode === 404 && error.message === 'sprite not found') {
    t.skip("sandbox-agent 0.4.2's provider matches @fly/sprites 0.0.1's 'Sprite not found:' message; with 0.1.0 a missing sprite is an APIError, not SandboxDestroyedError");
    return;
  }
  assert.fail(`reconnect to a deleted sprite: expected SandboxDestroyedError, got ${error?.name}: ${error?.message}`);
});

test('destroy of a sprite that is already gone', async (t) => {
  const NAME = 'sandbox-agent-gone-twice';
  await client.createSprite(NAME);
  await client.deleteSprite(NAME);
  const answer = await fetch(`${BASE}/v1/sprites/${NAME}`, { method: 'DELETE', headers: auth });
  const body = await answer.text();
  assert.deepEqual([answer.status, body], [404, '{"error":"sprite not found"}'], `DELETE of a deleted sprite: spritzer answered ${answer.status} ${body}`);
  const error = await provider(NAME).destroy(NAME).then(() => undefined, (e) => e);
  if (error === undefined) return;
  // The provider treats "Sprite not found:" or "status 404" in the message as gone (@fly/sprites 0.0.1's errors).
  if (error.name === 'APIError' && error.statusCode === 404 && error.message === 'sprite not found') {
    t.skip("sandbox-agent 0.4.2's provider matches @fly/sprites 0.0.1's 'status 404' message; with 0.1.0 a sprite already gone is an APIError that destroy() throws");
    return;
  }
  assert.fail(`destroy of a deleted sprite: expected it to resolve, got ${error.name}: ${error.message}`);
});

test('installAgents: a failing install names the command, its exit code and its output', async () => {
  const NAME = 'sandbox-agent-install';
  try {
    const error = await SandboxAgent.start({ sandbox: provider(NAME, { installAgents: ['claude'] }), skipHealthCheck: true }).then(() => undefined, (e) => e);
    const m = /^sprites command failed: bash -lc npx -y @sandbox-agent\/cli@0\.5\.0-rc\.2 install-agent claude \(exit (\d+)\)\nstdout:\n([^]*)\nstderr:\n([^]*)$/.exec(error?.message ?? '');
    assert.ok(m, `start with installAgents: expected the provider's "sprites command failed" error, got ${error?.name}: ${error?.message}`);
    assert.notEqual(m[1], '0', `the install's exit code: ${error.message}`);
    assert.ok(m[3].trim(), `the install's stderr is passed on: ${error.message}`);
  } finally {
    // A failed create leaves its sprite (the provider deletes nothing when create() throws).
    if ((await spriteNames()).includes(NAME)) await client.deleteSprite(NAME);
  }
});

// The shell engine runs no listeners: nothing in its sprites can serve the URL.
test('the SDK through the sprite URL against the published 0.4.2 server: health, files, processes, a log stream', { skip: ENGINE === 'shell' && 'the shell engine runs no listeners (its proxy answers that nothing listens)' }, async () => {
  const NAME = 'sandbox-agent-server';
  const sprites_ = provider(NAME);
  const created = await SandboxAgent.start({ sandbox: sprites_, skipHealthCheck: true });
  await created.dispose();
  try {
    const require = createRequire(import.meta.url);
    const binary = join(dirname(require.resolve('@sandbox-agent/cli-linux-x64/package.json')), 'bin/sandbox-agent');
    const BIN = '/home/sprite/.local/bin/sandbox-agent';
    await client.sprite(NAME).filesystem().writeFile(BIN, readFileSync(binary), { mode: 0o755 });
    const put = await fetch(`${BASE}/v1/sprites/${NAME}/services/sandbox-agent-0-4-2`, {
      method: 'PUT',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ cmd: BIN, args: ['server', '--no-token', '--host', '0.0.0.0', '--port', '8080'] }),
    });
    await put.body?.cancel();
    assert.equal(put.status, 200, `PUT of the service running the uploaded server: spritzer answered ${put.status}`);

    // Reconnect as the docs do, and let the SDK wait for the server's health through the URL. (start() passes its
    // `signal` and `skipHealthCheck` on to the client but not `waitForHealth`, so the signal is what bounds the wait.)
    const sdk = await SandboxAgent.start({ sandbox: sprites_, sandboxId: `sprites/${NAME}`, signal: AbortSignal.timeout(60_000) });
    try {
      const entries = await sdk.listFsEntries({ path: '/home/sprite' });
      assert.ok(entries.some((e) => e.name === '.local' && e.entryType === 'directory'), `listFsEntries of /home/sprite: ${JSON.stringify(entries)}`);
      assert.deepEqual(await sdk.getHealth(), { status: 'ok' }, 'getHealth through the sprite URL');

      const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
      const written = await sdk.writeFsFile({ path: '/home/sprite/work/bytes.bin' }, bytes);
      assert.deepEqual(written, { path: '/home/sprite/work/bytes.bin', bytesWritten: 256 }, `writeFsFile: ${JSON.stringify(written)}`);
      const read = await sdk.readFsFile({ path: '/home/sprite/work/bytes.bin' });
      assert.equal(Buffer.from(read).toString('hex'), Buffer.from(bytes).toString('hex'), `readFsFile of 256 bytes through the URL: ${read.length} bytes came back`);
      const stat = await sdk.statFs({ path: '/home/sprite/work/bytes.bin' });
      assert.deepEqual([stat.entryType, stat.size], ['file', 256], `statFs: ${JSON.stringify(stat)}`);
      const mkdir = await sdk.mkdirFs({ path: '/home/sprite/work/sub' }).then((r) => r, (e) => e);
      assert.ok(!(mkdir instanceof Error), `mkdirFs: ${mkdir?.message} ${JSON.stringify(mkdir?.problem)}`);
      const listing = (await sdk.listFsEntries({ path: '/home/sprite/work' })).map((e) => `${e.name} ${e.entryType}`).sort();
      assert.deepEqual(listing, ['bytes.bin file', 'sub directory'], `listFsEntries of /home/sprite/work: ${JSON.stringify(listing)}`);
      // The files are the sprite's: spritzer's own filesystem API sees what the server wrote.
      const seen = Buffer.from(await client.sprite(NAME).filesystem().readFile('/home/sprite/work/bytes.bin'));
      assert.equal(seen.toString('hex'), Buffer.from(bytes).toString('hex'), 'the file the server wrote, read through spritzer\'s filesystem API');
      await sdk.deleteFsEntry({ path: '/home/sprite/work/bytes.bin' });
      const missing = await sdk.readFsFile({ path: '/home/sprite/work/bytes.bin' }).then(() => undefined, (e) => e);
      // (the server answers a missing path with its own 400 problem, passed on unchanged by the URL's proxy)
      assert.ok(missing instanceof SandboxAgentError && missing.status === 400 && /path not found/.test(missing.problem?.detail),
        `readFsFile after deleteFsEntry: ${missing?.status} ${JSON.stringify(missing?.problem)}`);

      const ran = await sdk.runProcess({ command: 'bash', args: ['-c', 'echo out; echo err >&2; echo "$GREETING from $(pwd)"; exit 3'], cwd: '/home/sprite/work', env: { GREETING: 'hello' } });
      assert.deepEqual([ran.exitCode, ran.stdout, ran.stderr, ran.timedOut], [3, 'out\nhello from /home/sprite/work\n', 'err\n', false], `runProcess: ${JSON.stringify(ran)}`);
      const who = await sdk.runProcess({ command: 'id', args: ['-un'] });
      assert.equal(who.stdout, 'sprite\n', `runProcess id -un: ${JSON.stringify(who)}`);

      // A process whose output arrives over time, followed as a server-sent event stream through the URL.
      const proc = await sdk.createProcess({ command: 'bash', args: ['-c', 'for i in 1 2 3; do echo "tick $i"; sleep 0.3; done'] });
      const lines = [];
      const follow = await sdk.followProcessLogs(proc.id, (entry) => {
        const text = entry.encoding === 'base64' ? Buffer.from(entry.data, 'base64').toString() : entry.data;
        lines.push(...text.split('\n').filter(Boolean));
      }, { stream: 'stdout' });
      const deadline = Date.now() + 20_000;
      while (lines.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      follow.close();
      await follow.closed;
      assert.deepEqual(lines, ['tick 1', 'tick 2', 'tick 3'], `followProcessLogs (SSE through the sprite URL): ${JSON.stringify(lines)}`);
      let done = await sdk.getProcess(proc.id);
      while (done.status === 'running' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        done = await sdk.getProcess(proc.id);
      }
      assert.deepEqual([done.status, done.exitCode], ['exited', 0], `getProcess after it ended: ${JSON.stringify(done)}`);
    } finally {
      await sdk.destroySandbox();
    }
  } finally {
    if ((await spriteNames()).includes(NAME)) await client.deleteSprite(NAME);
  }
  assert.ok(!(await spriteNames()).includes(NAME), 'destroySandbox deletes the sprite');
});
