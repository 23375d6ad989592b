/**
 * The `/.sprite` tree inside a sandbox sprite, as the agent installs it at boot: `llm.txt` and `version.txt`
 * (root's, 0644), `/.sprite/docs/` (root's, 0755, its files 0644), `/.sprite/bin/{sprite-env,curl-sprite-api,
 * sprite-browser}` (root's, 0755, working; also in /usr/local/bin), `/.sprite/api.sock`, and `/.sprite/logs/services/`
 * (the sprite user's); a service's plain sprite user cannot change root's files (an exec session's, holding
 * CAP_DAC_OVERRIDE, can, as root can), and a link planted in `/.sprite/docs` by root inside is replaced at the next
 * boot, never written through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, execQuery, wsExec, TOKEN, startTestServer } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { LLM_TXT, SPRITE_BROWSER_SCRIPT, VERSION_TEXT } from '../../src/protocol/sprite-tree.ts';
import { AGENT_CONTEXT_MD, CHECKPOINTS_MD, NETWORKING_MD, SERVICES_MD } from '../../src/protocol/sprite-docs.ts';
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

  it('a service (the plain sprite user) cannot change root’s files under /.sprite; an exec session, holding CAP_DAC_OVERRIDE, can, as root can', async () => {
    const probe = 'id -u; echo x > /.sprite/llm.txt; echo "exit=$?"; rm -f /.sprite/version.txt; echo "exit=$?"; ln -s /etc/passwd /.sprite/planted; echo "exit=$?"';
    const svc = await call('PUT', '/v1/sprites/tree/services/probe?duration=0s', { cmd: 'bash', args: ['-c', `(${probe}) > /tmp/probe.out 2>/dev/null; mv /tmp/probe.out /tmp/probe.done`], needs: [] });
    expect(svc.status).toBeLessThan(300);
    let out = '';
    for (let i = 0; i < 100 && !out; i++) {
      out = (await sh('cat /tmp/probe.done 2>/dev/null')).stdout;
      if (!out) await new Promise((r) => setTimeout(r, 100));
    }
    expect(out).toBe('1001\nexit=1\nexit=1\nexit=1\n');
    expect((await sh('head -1 /.sprite/llm.txt')).stdout).toBe(`${LLM_TXT.split('\n')[0]}\n`);
    // The exec session writes its own layer's copy (docs/fidelity.md "Root-level writes"); the agent rewrites these
    // files at every boot. Put back as it was for the tests after this one.
    const w = await sh('cp -p /.sprite/version.txt /tmp/v && echo x >> /.sprite/version.txt && tail -1 /.sprite/version.txt && cat /tmp/v > /.sprite/version.txt && stat -c %U /.sprite/version.txt');
    expect(w.stdout).toBe('x\nroot\n');
  });

  it('/.sprite/bin/sprite-env answers from the model: a task made inside is seen by the public API', async () => {
    const made = await sh(`/.sprite/bin/sprite-env curl -X POST /v1/tasks -d '{"name":"inside","expire":"5m"}'`);
    expect(made.exitCode).toBe(0);
    expect((await call('GET', '/v1/sprites/tree/tasks/inside')).status).toBe(200);
    const cps = await sh('/.sprite/bin/sprite-env checkpoints list');
    expect(cps.exitCode).toBe(0);
    expect(Array.isArray(JSON.parse(cps.stdout))).toBe(true);
  });

  it('/.sprite/docs: root’s directory 0755, its five files 0644 with their texts; languages.md lists what this sprite has', async () => {
    const st = await sh('cd /.sprite/docs && stat -c "%n %U %a %F" . agent-context.md checkpoints.md languages.md networking.md services.md');
    expect(st.stdout.trim().split('\n')).toEqual([
      '. root 755 directory',
      ...['agent-context.md', 'checkpoints.md', 'languages.md', 'networking.md', 'services.md'].map((f) => `${f} root 644 regular file`),
    ]);
    for (const [file, text] of [['agent-context.md', AGENT_CONTEXT_MD], ['services.md', SERVICES_MD], ['checkpoints.md', CHECKPOINTS_MD], ['networking.md', NETWORKING_MD]]) {
      expect((await sh(`cat /.sprite/docs/${file}`)).stdout, file).toBe(text);
    }
    const langs = await sh('cat /.sprite/docs/languages.md; echo ---; command -v sh bash python3 git | sort');
    const [md, present] = langs.stdout.split('---\n');
    expect(md).toMatch(/^# Languages and tools on this sprite \(sandbox and container engines\)/);
    // Every tool the listing names is there, at that path.
    const rows = [...md!.matchAll(/^\| (\S+) \| (\S+) \|$/gm)].map((m) => [m[1], m[2]]);
    const check = await sh(rows.map(([, path]) => `test -x ${path} && echo ok`).join('; '));
    expect(check.stdout).toBe('ok\n'.repeat(rows.length));
    if (present!.includes('git')) expect(rows.map(([n]) => n)).toContain('git');
    expect(LLM_TXT).toContain('/.sprite/docs/languages.md');
  });

  it('sprite-env info, version and --help; curl-sprite-api (with the host’s curl) and sprite-browser, at both paths', async () => {
    const sprite = (await call('GET', '/v1/sprites/tree')).json;
    const info = await sh('sprite-env info');
    expect([info.exitCode, JSON.parse(info.stdout)]).toEqual([0, { sprite_name: 'tree', sprite_id: sprite.id, organization: sprite.organization, sprite_url: sprite.url, version: VERSION_TEXT }]);
    expect((await sh('/.sprite/bin/sprite-env version')).stdout).toBe(`${VERSION_TEXT}\n`);
    const help = await sh('sprite-env services create --help');
    expect([help.exitCode, help.stdout.split('\n')[0], help.stderr]).toEqual([0, 'usage: sprite-env services create <name> [options]', '']);
    const bad = await sh('sprite-env services signal web');
    expect([bad.exitCode, bad.stdout, bad.stderr.split('\n')[0]]).toEqual([2, '', 'sprite-env services signal: missing <signal>']);

    const st = await sh('stat -c "%n %U %a" /.sprite/bin/curl-sprite-api /usr/local/bin/curl-sprite-api /.sprite/bin/sprite-browser /usr/local/bin/sprite-browser');
    expect(st.stdout.trim().split('\n')).toEqual(['/.sprite/bin/curl-sprite-api root 755', '/usr/local/bin/curl-sprite-api root 755', '/.sprite/bin/sprite-browser root 755', '/usr/local/bin/sprite-browser root 755']);
    expect((await sh('cat /usr/local/bin/sprite-browser')).stdout).toBe(SPRITE_BROWSER_SCRIPT);
    const made = await sh(`curl-sprite-api -s -X POST /v1/tasks -d '{"name":"csa","expire":"5m"}'`);
    expect([made.exitCode, JSON.parse(made.stdout).name]).toEqual([0, 'csa']);
    expect((await call('GET', '/v1/sprites/tree/tasks/csa')).status).toBe(200);
    expect((await sh('/.sprite/bin/curl-sprite-api --help')).stdout.split('\n')[0]).toBe('usage: curl-sprite-api [curl options] <path>');
    // Without curl on PATH the agent answers itself.
    const noCurl = await sh('mkdir -p /tmp/nocurl && ln -sf /bin/sh /tmp/nocurl/sh && PATH=/tmp/nocurl /usr/local/bin/curl-sprite-api /policy/network');
    expect([noCurl.exitCode, JSON.parse(noCurl.stdout)]).toEqual([0, { rules: [] }]);
    const browser = await sh('sprite-browser https://example.com; echo "rc=$?"');
    expect([browser.stdout, browser.stderr]).toEqual(['rc=0\n', 'sprite-browser: not opened: https://example.com (spritzer attaches no browser to a sprite)\n']);
  });

  it('a link root plants at /.sprite/docs is replaced by a real directory at the next boot, never written through', async () => {
    const planted = await sh('sudo sh -c "rm -rf /.sprite/docs && mkdir -p /home/sprite/target && ln -s /home/sprite/target /.sprite/docs" && readlink /.sprite/docs');
    expect(planted.stdout).toBe('/home/sprite/target\n');
    // A restore reboots the sprite (its agent starts afresh and installs the files again).
    expect((await call('POST', '/v1/sprites/tree/checkpoint', { comment: 'docs link' })).status).toBe(200);
    const id = (await call('GET', '/v1/sprites/tree/checkpoints')).json[1].id;
    expect((await call('POST', `/v1/sprites/tree/checkpoints/${id}/restore`)).text).toContain('complete');
    const after = await sh('stat -c "%F %U %a" /.sprite/docs; ls /home/sprite/target | wc -l; head -1 /.sprite/docs/services.md');
    expect(after.stdout).toBe(`directory root 755\n0\n${SERVICES_MD.split('\n')[0]}\n`);
  });
});
