/**
 * One suite for the agent-backed engines (sandbox, container): root-level writes as production allows them, through
 * spritzer's public API. An exec session's processes run as the sprite user holding CAP_CHOWN, CAP_DAC_OVERRIDE,
 * CAP_FOWNER and CAP_FSETID (ambient, so every program they start keeps them), services run as the plain sprite user.
 * The start-up command lines of three integrations written against production are replayed as they send them (argv
 * execs, `dir=`), with a local git repository for the network clone and a stand-in for uv's installer: the OpenAI
 * Agents provider (`mkdir -p -- /workspace`, then execs with dir=/workspace), openenv (`git clone … /srv/openenv`, uv
 * under `/opt/openenv/bin`, a service with dir=/srv/openenv) and the Claude Managed Agents worker
 * (`/run/cma-worker.lock`, `/var/log/cma-worker.log`, `/mnt/session/uploads/…`, `mkdir -p /workspace`). The sprite
 * needs bash, python3, git and tar. The caller starts and stops the server; the suite makes its sprites in a
 * `beforeAll` (declare it inside the `describe` whose own `beforeAll` started the server). Test support only.
 * @see docs/fidelity.md "Root-level writes"
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { api, execQuery, wsExec } from './server.ts';

/** CapEff of a process holding CHOWN (0), DAC_OVERRIDE (1), FOWNER (3) and FSETID (4). */
export const EXEC_CAP_MASK = '000000000000001b';

/** Waits until `check` resolves true (every 100 ms, up to `ms`). */
async function until(check: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** Declares the suite's tests against the server whose URL `base()` gives once it started (sprites oa, oe, cma, svc). */
export function rootLevelWritesSuite(base: () => string, timeoutMs = 60_000): void {
  const call = (...a: Parameters<ReturnType<typeof api>>) => api(base())(...a);
  const run = (sprite: string, argv: string[], opts: Parameters<typeof execQuery>[1] = {}) =>
    wsExec(base(), `/v1/sprites/${sprite}/exec?${execQuery(argv, opts)}`);
  const sh = (script: string) => ['bash', '-c', script];

  beforeAll(async () => {
    for (const name of ['oa', 'oe', 'cma', 'svc']) expect((await call('POST', '/v1/sprites', { name })).status).toBe(201);
  }, timeoutMs);

    it('an exec runs as uid 1001 holding exactly CHOWN, DAC_OVERRIDE, FOWNER, FSETID (effective, ambient), and passes them to what it starts', async () => {
      const r = await run('oa', sh('id -u; id -un; grep -E "^Cap(Eff|Amb|Prm):" /proc/self/status; bash -c "grep ^CapEff: /proc/self/status"'));
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(`1001\nsprite\nCapPrm:\t${EXEC_CAP_MASK}\nCapEff:\t${EXEC_CAP_MASK}\nCapAmb:\t${EXEC_CAP_MASK}\nCapEff:\t${EXEC_CAP_MASK}\n`);
      // A terminal session holds them too.
      const tty = await run('oa', ['grep', '^CapEff:', '/proc/self/status'], { tty: true });
      expect(tty.stdout).toBe(`CapEff:\t${EXEC_CAP_MASK}\r\n`);
    }, timeoutMs);

    it('OpenAI Agents provider: mkdir -p -- /workspace as argv, then execs with dir=/workspace (env by an `env --` prefix) answer', async () => {
      const made = await run('oa', ['mkdir', '-p', '--', '/workspace']);
      expect([made.stderr, made.exitCode]).toEqual(['', 0]);
      const ids = await run('oa', ['sh', '-lc', 'id -u; id -g']);
      expect(ids.stdout).toBe('1001\n1001\n');
      const inside = await run('oa', ['env', '--', 'AGENT=1', 'sh', '-c', 'pwd; echo "$AGENT" > note.txt; stat -c "%U:%G %a" . note.txt'], { dir: '/workspace' });
      expect([inside.stdout, inside.exitCode]).toEqual(['/workspace\nsprite:sprite 755\nsprite:sprite 644\n', 0]);
      // The HTTP exec answers 200 there (before the mkdir it would be a chdir error).
      const http = await call('POST', `/v1/sprites/oa/exec?${execQuery(['cat', 'note.txt'], { dir: '/workspace' })}`);
      expect(http.status).toBe(200);
      expect(http.text).toContain('1');
    }, timeoutMs);

    it('openenv: git clone into /srv/openenv, uv installed under /opt/openenv/bin, a service with dir=/srv/openenv serving port 8000', async () => {
      // A local repository stands in for the network clone (the same argv, a file:// URL).
      const prep = await run('oe', sh([
        'set -e; git init -q /home/sprite/echo-env; cd /home/sprite/echo-env',
        'git -c user.email=a@b -c user.name=a commit -q --allow-empty -m init',
        'printf "lock\\n" > uv.lock; git add uv.lock; git -c user.email=a@b -c user.name=a commit -q -m lock',
      ].join('; ')));
      expect([prep.stderr, prep.exitCode]).toEqual(['', 0]);
      const clone = await run('oe', ['git', 'clone', '--depth', '1', 'file:///home/sprite/echo-env', '/srv/openenv']);
      expect(clone.exitCode).toBe(0);
      const head = await run('oe', ['git', 'rev-parse', 'HEAD'], { dir: '/srv/openenv' });
      expect(head.stdout).toMatch(/^[0-9a-f]{40}\n$/);
      // uv's installer stand-in: installs a `uv` into $UV_UNMANAGED_INSTALL as the real one does.
      const installer = [
        '#!/bin/sh', 'set -e', 'mkdir -p "$UV_UNMANAGED_INSTALL"',
        `cat > "$UV_UNMANAGED_INSTALL/uv" <<'EOF'`,
        '#!/bin/sh',
        'case "$1" in',
        '  --version) echo "uv 0.12.6";;',
        '  sync) touch .venv-synced;;',
        '  run) shift 2; echo serving > served.txt; exec python3 -m http.server --bind 0.0.0.0 8000;;',
        'esac',
        'EOF',
        'chmod +x "$UV_UNMANAGED_INSTALL/uv"', '',
      ].join('\n');
      expect((await call('PUT', '/v1/sprites/oe/fs/write?path=/tmp/openenv-uv-install.sh', installer)).status).toBe(200);
      const install = await run('oe', ['env', 'UV_UNMANAGED_INSTALL=/opt/openenv/bin', 'sh', '/tmp/openenv-uv-install.sh']);
      expect([install.stderr, install.exitCode]).toEqual(['', 0]);
      const version = await run('oe', ['/opt/openenv/bin/uv', '--version']);
      expect([version.stdout, version.stderr, version.exitCode]).toEqual(['uv 0.12.6\n', '', 0]);
      expect((await run('oe', ['test', '-f', '/srv/openenv/uv.lock'])).exitCode).toBe(0);
      expect((await run('oe', ['/opt/openenv/bin/uv', 'sync', '--frozen'], { dir: '/srv/openenv' })).exitCode).toBe(0);
      const owners = await run('oe', ['stat', '-c', '%n %U', '/srv/openenv', '/opt/openenv/bin/uv', '/srv/openenv/.venv-synced']);
      expect(owners.stdout).toBe('/srv/openenv sprite\n/opt/openenv/bin/uv sprite\n/srv/openenv/.venv-synced sprite\n');
      const svc = await call('PUT', '/v1/sprites/oe/services/openenv?duration=2s', {
        cmd: '/opt/openenv/bin/uv', args: ['run', 'server', '--host', '0.0.0.0', '--port', '8000'], dir: '/srv/openenv', http_port: 8000, needs: [],
      });
      expect(svc.status).toBeLessThan(300);
      // The service (no capabilities) writes into the directory the exec made, which is the sprite user's.
      const status = ['python3', '-c', 'import urllib.request; print(urllib.request.urlopen("http://127.0.0.1:8000/").status)'];
      expect(await until(async () => (await run('oe', status)).stdout === '200\n')).toBe(true);
      expect((await run('oe', ['cat', '/srv/openenv/served.txt'])).stdout).toBe('serving\n');
    }, timeoutMs);

    it('Claude Managed Agents worker: vendor unpacked in ~/.cma-worker, mkdir -p /workspace, a lock in /run, a log in /var/log, uploads under /mnt/session', async () => {
      // The worker's package, as the dispatcher uploads it (vendor.tar.gz, mode 0600), with a stand-in main.
      const host = await mkdtemp(join(tmpdir(), 'cma-vendor-'));
      try {
        await mkdir(join(host, 'sprites_claude_managed_agents_worker'));
        await writeFile(join(host, 'sprites_claude_managed_agents_worker/__init__.py'), '');
        await writeFile(join(host, 'sprites_claude_managed_agents_worker/main.py'), [
          'import fcntl, json, os, tempfile',
          'lock = open("/run/cma-worker.lock", "w")',
          'fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)',
          'log = os.open("/var/log/cma-worker.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)',
          'os.write(log, b"worker started\\n")',
          'for name, body in json.loads(os.environ["CMA_SESSION_FILES"]).items():',
          '    path = os.path.join("/mnt/session/uploads", name)',
          '    os.makedirs(os.path.dirname(path), exist_ok=True)',
          '    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path))',
          '    os.write(fd, body.encode()); os.close(fd)',
          '    os.replace(tmp, path)',
          'print("ok", os.getuid())',
          '',
        ].join('\n'));
        execFileSync('tar', ['-czf', join(host, 'vendor.tar.gz'), '-C', host, 'sprites_claude_managed_agents_worker']);
        const tarball = await readFile(join(host, 'vendor.tar.gz'));
        const put = await call('PUT', '/v1/sprites/cma/fs/write?path=/home/sprite/.cma-worker/vendor.tar.gz&mkdirParents=true&mode=0600', new Uint8Array(tarball));
        expect(put.status).toBe(200);
      } finally {
        await rm(host, { recursive: true, force: true });
      }
      const probe = await run('cma', ['/usr/bin/python3', '-c', 'import sprites_claude_managed_agents_worker.main'], { env: ['PYTHONPATH=/home/sprite/.cma-worker/deps:/home/sprite/.cma-worker/vendor'] });
      expect(probe.exitCode).toBe(1);
      const scratch = '/home/sprite/.cma-worker';
      const unpack = await run('cma', ['bash', '-c', [
        `set -e; mkdir -p ${scratch}`,
        `tmp=$(mktemp -d ${scratch}/vendor.XXXXXX)`,
        `tar -xzf ${scratch}/vendor.tar.gz -C "$tmp"`,
        `mv -T "$tmp" ${scratch}/vendor`,
        `rm -f ${scratch}/vendor.tar.gz`,
        'mkdir -p /workspace || exit 1',
      ].join('\n')]);
      expect([unpack.stderr, unpack.exitCode]).toEqual(['', 0]);
      const files = JSON.stringify({ 'a/b/notes.txt': 'hello' });
      const worker = await run('cma', ['/usr/bin/python3', '-m', 'sprites_claude_managed_agents_worker.main'], {
        env: [`PYTHONPATH=${scratch}/deps:${scratch}/vendor`, 'ANTHROPIC_SESSION_ID=s1', `CMA_SESSION_FILES=${files}`],
      });
      expect([worker.stdout, worker.stderr, worker.exitCode]).toEqual(['ok 1001\n', '', 0]);
      const after = await run('cma', sh('cat /var/log/cma-worker.log /mnt/session/uploads/a/b/notes.txt; echo; stat -c "%n %U %a" /run/cma-worker.lock /var/log/cma-worker.log /mnt/session /workspace'));
      expect(after.stdout).toBe('worker started\nhello\n/run/cma-worker.lock sprite 644\n/var/log/cma-worker.log sprite 644\n/mnt/session sprite 755\n/workspace sprite 755\n');
    }, timeoutMs);

    it('a service runs without capabilities: EACCES in a root-owned directory, writes to a /workspace the exec made; sudo still gives uid 0', async () => {
      const prep = await run('svc', sh('mkdir -p /workspace /rootdir && sudo chown root:root /rootdir && stat -c "%U" /workspace /rootdir'));
      expect(prep.stdout).toBe('sprite\nroot\n');
      const script = 'grep ^CapEff: /proc/self/status > /workspace/caps; id -u >> /workspace/caps; touch /rootdir/x 2>> /workspace/caps; mkdir /srv/denied 2>> /workspace/caps; echo done >> /workspace/caps';
      const svc = await call('PUT', '/v1/sprites/svc/services/probe?duration=0s', { cmd: 'bash', args: ['-c', script], needs: [] });
      expect(svc.status).toBeLessThan(300);
      expect(await until(async () => (await run('svc', ['cat', '/workspace/caps'])).stdout.endsWith('done\n'))).toBe(true);
      expect((await run('svc', ['cat', '/workspace/caps'])).stdout).toMatch(
        /^CapEff:\t0000000000000000\n1001\ntouch: cannot touch .\/rootdir\/x.: Permission denied\nmkdir: cannot create directory .\/srv\/denied.: Permission denied\ndone\n$/,
      );
      // The same commands in an exec pass; sudo still makes root.
      const exec = await run('svc', sh('touch /rootdir/x && mkdir /srv/allowed && stat -c %U /rootdir/x /srv/allowed && sudo id -u'));
      expect([exec.stdout, exec.exitCode]).toEqual(['sprite\nsprite\n0\n', 0]);
    }, timeoutMs);
}
