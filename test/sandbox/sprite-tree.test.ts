/**
 * The `/.sprite` tree inside a sandbox sprite, as the agent installs it at boot: `llm.txt` and `version.txt`
 * (root's, 0644), `/.sprite/bin/sprite-env` (root's, 0755, working), `/.sprite/api.sock`, and
 * `/.sprite/logs/services/` (the sprite user's); the sprite user cannot change root's files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, execQuery, wsExec, TOKEN, startTestServer } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { LLM_TXT, VERSION_TEXT } from '../../src/protocol/sprite-tree.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('sandbox /.sprite tree');
let srv: RunningServer;
let call: ReturnType<typeof api>;
const sh = (script: string) => wsExec(srv.url, `/v1/sprites/tree/exec?${execQuery(['bash', '-c', script])}`);

beforeAll(async () => {
  if (skip) return;
  srv = await startTestServer('sandbox', { token: TOKEN });
  call = api(srv.url);
  expect((await call('POST', '/v1/sprites', { name: 'tree' })).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await srv?.close();
});

describe.skipIf(skip)('the /.sprite tree in a sandbox sprite', () => {
  it('llm.txt, version.txt, bin/sprite-env, api.sock and logs/services with their owners and modes', async () => {
    const llm = await sh('cat /.sprite/llm.txt');
    expect([llm.exitCode, llm.stdout]).toEqual([0, LLM_TXT]);
    expect((await sh('cat /.sprite/version.txt')).stdout).toBe(`${VERSION_TEXT}\n`);
    const st = await sh('stat -c "%n %U %a %F" /.sprite/llm.txt /.sprite/version.txt /.sprite/bin/sprite-env /.sprite/logs/services /.sprite/api.sock');
    expect(st.stdout.trim().split('\n')).toEqual([
      '/.sprite/llm.txt root 644 regular file',
      '/.sprite/version.txt root 644 regular file',
      '/.sprite/bin/sprite-env root 755 regular file',
      '/.sprite/logs/services sprite 755 directory',
      '/.sprite/api.sock root 666 socket',
    ]);
  });

  it('the sprite user cannot change root’s files under /.sprite', async () => {
    const w = await sh('id -u; echo x > /.sprite/llm.txt; echo "exit=$?"; rm -f /.sprite/version.txt; echo "exit=$?"; ln -s /etc/passwd /.sprite/planted; echo "exit=$?"');
    expect(w.stdout).toBe('1000\nexit=1\nexit=1\nexit=1\n');
    expect((await sh('head -1 /.sprite/llm.txt')).stdout).toBe(`${LLM_TXT.split('\n')[0]}\n`);
  });

  it('/.sprite/bin/sprite-env answers from the model: a task made inside is seen by the public API', async () => {
    const made = await sh(`/.sprite/bin/sprite-env curl -X POST /v1/tasks -d '{"name":"inside","expire":"5m"}'`);
    expect(made.exitCode).toBe(0);
    expect((await call('GET', '/v1/sprites/tree/tasks/inside')).status).toBe(200);
    const cps = await sh('/.sprite/bin/sprite-env checkpoints list');
    expect(cps.exitCode).toBe(0);
    expect(Array.isArray(JSON.parse(cps.stdout))).toBe(true);
  });
});
