// Inside a sprite (docs/fidelity.md "Exec environment", docs/wire-reference.md §12–§13): what a command run through
// exec finds — the user and its groups, HOME, PATH and the working directory, passwordless sudo, the /.sprite tree,
// a login shell reading /etc/profile, the tools a Sprite ships (git, python3, node, curl), the root-level paths
// integrations write to as the default user (/workspace, /srv, /opt, /mnt, /run, /var/log) and the sprite's URL
// reaching a server inside. Everything goes through the exec socket (bash -c), the fs-free way a client sees it.
// Where an engine cannot do a thing (the shell engine runs no real process: nothing listens, some options are not
// emulated), the test asserts the engine's documented loud answer instead (docs/fidelity.md), never a skip.
import { beforeAll, describe, expect } from 'vitest';
import { useConformance, verified, emulatorOnly, runExec, IS_REMOTE, type ExecOptions, type ExecResult } from './support/index.ts';
import { EMULATOR_ENGINE } from './support/target.ts';

const { target, call, sprites } = useConformance();
let box: string;
beforeAll(async () => {
  box = (await sprites.create()).name;
});

/** Runs `script` under `bash -c` in the test sprite. */
const sh = (script: string, opts: ExecOptions = {}): Promise<ExecResult> => runExec(target(), box, ['bash', '-c', script], opts);

/** stdout's lines, the trailing newline dropped. */
const lines = (r: ExecResult): string[] => r.stdout.replace(/\n$/, '').split('\n');

/**
 * Engines where no process of the sprite can listen on a port (docs/fidelity.md "Sprite URL on shell/interpreter":
 * 502 `bad_gateway`; a listening socket in `python3` is refused naming the sandbox engine).
 */
const NOTHING_LISTENS = !IS_REMOTE && (EMULATOR_ENGINE === 'shell' || EMULATOR_ENGINE === 'interpreter');

/** A loud refusal: a non-zero exit with a reason on stderr that names the engine, or the shell's `command not found`. */
function isLoudRefusal(r: ExecResult, tool: string): boolean {
  if (r.exitCode === 0 || r.exitCode === null || !r.stderr.trim()) return false;
  return /shell engine|--exec sandbox/.test(r.stderr) || (r.exitCode === 127 && r.stderr.includes(`${tool}: command not found`));
}

/**
 * A tool either does its job (`works` holds) or refuses loudly (non-zero, stderr naming why); against real Sprites
 * only the first. A zero exit with the wrong output fails either way. A `command not found` is accepted only when the
 * sprite's own /.sprite/docs/languages.md does not list the tool as present (the container image decides what it holds).
 */
async function worksOrRefusesLoudly(tool: string, script: string, works: (r: ExecResult) => boolean): Promise<'works' | 'refused'> {
  const r = await sh(script);
  if (r.exitCode === 0) {
    expect(works(r), `${tool}: exit 0 but stdout ${JSON.stringify(r.stdout)} stderr ${JSON.stringify(r.stderr)}`).toBe(true);
    return 'works';
  }
  expect(IS_REMOTE, `${tool} fails on a real Sprite: ${r.exitCode} ${r.stderr}`).toBe(false);
  expect(isLoudRefusal(r, tool), `${tool}: exit ${r.exitCode} without a loud reason: ${JSON.stringify(r.stderr)}`).toBe(true);
  if (r.exitCode === 127) {
    const listed = await sh(`grep -E '^\\| ${tool} \\| /' /.sprite/docs/languages.md`);
    expect(listed.stdout, `${tool} is missing but languages.md lists it`).toBe('');
  }
  return 'refused';
}

describe('inside a sprite', () => {
  verified.it('runs as the user sprite, who owns the home directory; its primary group is sprite', async () => {
    const r = await sh('id -un; id -u; stat -c %u ~; id -gn; stat -c %U /home/sprite');
    expect(r.exitCode).toBe(0);
    const [user, uid, homeUid, group, homeOwner] = lines(r);
    expect(user).toBe('sprite');
    expect(uid).toMatch(/^[1-9]\d*$/);
    expect(homeUid).toBe(uid);
    expect(group).toBe('sprite');
    expect(homeOwner).toBe('sprite');
  });

  // Production's image: useradd -ms /bin/bash -u 1001 sprite; usermod -aG sudo,users sprite (superfly/sprites-go
  // base-env/images/ubuntu-devtools/Dockerfile); a live probe printed uid=1001(sprite) (docs/fidelity.md "`id`").
  verified.it('the sprite user is uid/gid 1001 in the groups sudo (27) and users (100): id, stat, ls -ln and python3 say so', async () => {
    const r = await sh(
      [
        'id; id -u; id -g; id -G; id -Gn',
        'cd /home/sprite && rm -f uid-probe && touch uid-probe',
        "stat -c '%u %g %U %G' uid-probe; ls -ln uid-probe | awk '{print $3, $4}'; stat -c '%u %g' /home/sprite",
        // Whether production's processes also list their own group among the supplementary ones is not known (a
        // process started by gosu does not); the others are sudo and users either way.
        "python3 -c 'import os; print(os.getuid(), os.getgid(), sorted(set(os.getgroups()) - {os.getgid()}))'",
        'rm -f uid-probe',
      ].join('; '),
    );
    expect([r.stderr, r.exitCode]).toEqual(['', 0]);
    expect(lines(r)).toEqual([
      'uid=1001(sprite) gid=1001(sprite) groups=1001(sprite),27(sudo),100(users)',
      '1001', '1001', '1001 27 100', 'sprite sudo users',
      '1001 1001 sprite sprite', '1001 1001', '1001 1001',
      '1001 1001 [27, 100]',
    ]);
  });

  verified.it('/etc/passwd and /etc/group name the sprite user as production\'s image does', async () => {
    const r = await sh("grep '^sprite:' /etc/passwd; grep -E '^(sudo|users|sprite):' /etc/group; getent group sudo users | cut -d: -f1,3");
    expect(r.exitCode).toBe(0);
    const [passwd, ...groups] = lines(r);
    expect(passwd).toBe('sprite:x:1001:1001::/home/sprite:/bin/bash');
    // Each group as name:gid and whether sprite is among its members (an image's own user may be one too).
    const member = (line: string) => {
      const [name, , gid, members] = line.split(':');
      return `${name}:${gid}:${members!.split(',').includes('sprite') ? 'sprite' : members}`;
    };
    expect(groups.slice(0, 3).map(member)).toEqual(['sudo:27:sprite', 'users:100:sprite', 'sprite:1001:']);
    expect(groups.slice(3)).toEqual(['sudo:27', 'users:100']);
  });

  verified.it('HOME is /home/sprite and a command starts there', async () => {
    const r = await sh('echo "$HOME"; pwd');
    expect(lines(r)).toEqual(['/home/sprite', '/home/sprite']);
  });

  verified.it('PATH holds /usr/local/bin, /usr/bin, /bin and /.sprite/bin, where sprite-env is', async () => {
    const r = await sh('echo "$PATH"; command -v sprite-env');
    expect(r.exitCode).toBe(0);
    const [path, found] = lines(r);
    expect(path!.split(':')).toEqual(expect.arrayContaining(['/usr/local/bin', '/usr/bin', '/bin', '/.sprite/bin']));
    expect(found).toMatch(/\/sprite-env$/);
  });

  verified.it('sudo is passwordless: sudo -n true exits 0 and sudo -n id -u prints 0', async () => {
    expect((await sh('sudo -n true')).exitCode).toBe(0);
    const id = await sh('sudo -n id -u');
    expect([id.stdout, id.exitCode]).toEqual(['0\n', 0]);
  });

  verified.it('the /.sprite tree: llm.txt, version.txt, docs/agent-context.md to read, bin/sprite-env to run', async () => {
    const r = await sh(
      'for f in /.sprite/llm.txt /.sprite/version.txt /.sprite/docs/agent-context.md; do test -f "$f" && test -r "$f" && test -s "$f" && echo "read $f"; done; ' +
        'test -x /.sprite/bin/sprite-env && echo "run /.sprite/bin/sprite-env"; /.sprite/bin/sprite-env version >/dev/null && echo version-ok',
    );
    expect(lines(r)).toEqual([
      'read /.sprite/llm.txt',
      'read /.sprite/version.txt',
      'read /.sprite/docs/agent-context.md',
      'run /.sprite/bin/sprite-env',
      'version-ok',
    ]);
  });

  // Production's owners and modes of these files are not published (docs/fidelity.md "/.sprite/docs/"): spritzer's
  // choice is root's, 0644/0755. Writability is asked with access(2) (python's os.access), which uses the real
  // ids and drops capabilities for a non-root user; bash's `test -w` asks with the effective ones (faccessat
  // AT_EACCESS), so under an exec session's file capabilities it may say yes.
  emulatorOnly.it('the /.sprite files are root’s and access(2) says the sprite user may not write them', async () => {
    const files = ['/.sprite/llm.txt', '/.sprite/version.txt', '/.sprite/bin/sprite-env', '/.sprite/docs/agent-context.md'];
    const owners = await sh(`stat -c '%n %U %a' ${files.join(' ')}`);
    expect(lines(owners)).toEqual([
      '/.sprite/llm.txt root 644',
      '/.sprite/version.txt root 644',
      '/.sprite/bin/sprite-env root 755',
      '/.sprite/docs/agent-context.md root 644',
    ]);
    const access = await sh(`python3 -c 'import os, sys; print(" ".join(str(os.access(f, os.W_OK)) for f in sys.argv[1:]))' ${files.join(' ')} /home/sprite`);
    expect(access.stdout).toBe('False False False False True\n');
  });

  verified.it('bash -l reads /etc/profile: a variable from /etc/profile.d, and sprite-env still found', async () => {
    const r = await sh(
      'sudo mkdir -p /etc/profile.d && echo "export SPRITZER_INSIDE_PROFILE=read" | sudo tee /etc/profile.d/zz-spritzer-inside.sh >/dev/null && ' +
        `bash -l -c 'echo "$SPRITZER_INSIDE_PROFILE"; command -v sprite-env'; sudo rm -f /etc/profile.d/zz-spritzer-inside.sh`,
    );
    const [value, found] = lines(r);
    expect(value).toBe('read');
    expect(found).toMatch(/\/sprite-env$/);
    expect(r.exitCode).toBe(0);
    expect((await sh(`bash -l -c 'echo "\${SPRITZER_INSIDE_PROFILE-unset}"'`)).stdout).toBe('unset\n');
  });

  verified.it('a login shell keeps /.sprite/bin on PATH (the image\'s /etc/profile resets PATH; the profile puts it back)', async () => {
    const r = await sh(`bash -l -c 'echo "$PATH"'`);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim().split(':')).toContain('/.sprite/bin');
  });

  verified.it('git works, or refuses loudly', async () => {
    await worksOrRefusesLoudly('git', 'git --version', (r) => /^git version \d/.test(r.stdout));
  });

  verified.it('python3 works, or refuses loudly', async () => {
    await worksOrRefusesLoudly('python3', "python3 -c 'print(6 * 7)'", (r) => r.stdout === '42\n');
  });

  verified.it('node works, or refuses loudly', async () => {
    await worksOrRefusesLoudly('node', "node -e 'console.log(6 * 7)'", (r) => r.stdout === '42\n');
  });

  // The shell engine's curl reaches the loopback only, and refuses --version (docs/fidelity.md, "What the shell engine
  // cannot do"): either way a port nobody listens on is curl's exit 7, wherever curl is.
  verified.it('curl works, or refuses loudly; a loopback port nobody listens on is curl’s exit 7', async () => {
    await worksOrRefusesLoudly('curl', 'curl --version', (r) => /^curl \d/.test(r.stdout));
    const refused = await sh('command -v curl >/dev/null || exit 99; curl -sS http://127.0.0.1:1/');
    if (refused.exitCode === 99) {
      expect(IS_REMOTE, 'a real Sprite has curl').toBe(false);
      return;
    }
    expect(refused.exitCode).toBe(7);
    expect(refused.stderr).toMatch(/^curl: \(7\) /);
  });

  // Integrations written against production do this as the default user, without sudo (Fly's OpenAI Agents provider:
  // `mkdir -p -- /workspace` then an exec with dir=/workspace; openenv: /srv, /opt/…/bin; the Claude Managed Agents
  // worker: /run/….lock, /var/log/….log, /mnt/session/…): docs/fidelity.md "Root-level writes".
  verified.it('the default user writes at the root: /workspace, /srv, /opt, /mnt, a file in /run and /var/log', async () => {
    const r = await sh(
      'set -e; mkdir -p /workspace && touch /workspace/x; mkdir -p /srv/x && touch /srv/x/f; mkdir -p /opt/x/bin && touch /opt/x/bin/tool; ' +
        'mkdir -p /mnt/x && touch /mnt/x/f; touch /run/spritzer-inside.lock /var/log/spritzer-inside.log; ' +
        'stat -c "%n %U" /workspace /workspace/x /srv/x /opt/x/bin /mnt/x /run/spritzer-inside.lock /var/log/spritzer-inside.log',
    );
    expect(r.stderr).toBe('');
    expect(lines(r)).toEqual(
      ['/workspace', '/workspace/x', '/srv/x', '/opt/x/bin', '/mnt/x', '/run/spritzer-inside.lock', '/var/log/spritzer-inside.log'].map((p) => `${p} sprite`),
    );
    expect(r.exitCode).toBe(0);
  });

  verified.it('an exec with dir=/workspace runs there', async () => {
    expect((await sh('mkdir -p /workspace')).exitCode).toBe(0);
    const r = await runExec(target(), box, ['pwd'], { dir: '/workspace' });
    expect([r.stdout, r.exitCode]).toEqual(['/workspace\n', 0]);
  });

  // Fly's network is IPv6 first, and clients hand the proxy socket whatever address a program printed (sprites-go
  // dials `[::1]:port` as given): the loopback has ::1 as well as 127.0.0.1.
  verified.it('the loopback has ::1 as well as 127.0.0.1: a program listens on either', async () => {
    const listen = (family: string, addr: string) =>
      `python3 -c "import socket; s = socket.socket(socket.${family}); s.bind(('${addr}', 0)); s.listen(); print('listening')"`;
    for (const [family, addr] of [['AF_INET', '127.0.0.1'], ['AF_INET6', '::1']] as const) {
      const how = await worksOrRefusesLoudly('python3', listen(family, addr), (r) => r.stdout === 'listening\n');
      expect(how === 'refused' ? NOTHING_LISTENS : true, `${addr}: refused on an engine where programs listen`).toBe(true);
    }
  });

  // The url routes to port 8080 of the sprite (docs/wire-reference.md "Sprite URL"). On the shell engine nothing can
  // listen: the service's python3 refuses the bind naming the sandbox engine and the url answers 502 bad_gateway.
  verified.it('the sprite’s url reaches a python3 -m http.server 8080 service with the token, and not without it', async () => {
    const url: string = (await call('GET', `/v1/sprites/${box}`)).json.url;
    expect(url).toMatch(/^https?:\/\//);
    expect((await sh('mkdir -p ~/www && echo "hello from inside" > ~/www/index.html')).exitCode).toBe(0);
    const svc = await call('PUT', `/v1/sprites/${box}/services/inside-web`, {
      query: { duration: NOTHING_LISTENS ? '2s' : '0s' },
      body: { cmd: 'python3', args: ['-m', 'http.server', '8080', '--bind', '0.0.0.0', '--directory', '/home/sprite/www'], http_port: 8080 },
    });
    expect(svc.status, svc.text).toBe(200);
    const auth = { Authorization: `Bearer ${target().token}` };
    try {
      if (NOTHING_LISTENS) {
        const stderr = svc.lines!.filter((l) => l.type === 'stderr').map((l) => l.data).join('');
        expect(stderr).toMatch(/python3: .*not available in the shell engine; run spritzer with --exec sandbox/);
        expect(svc.lines!.find((l) => l.type === 'exit')?.exit_code).not.toBe(0);
        const res = await fetch(`${url}/index.html`, { headers: auth });
        expect(res.status).toBe(502);
        expect((await res.json()).error).toBe('bad_gateway');
        return;
      }
      let res = await fetch(`${url}/index.html`, { headers: auth });
      for (let i = 0; i < 150 && res.status === 502; i++) {
        await new Promise((r) => setTimeout(r, 100));
        res = await fetch(`${url}/index.html`, { headers: auth });
      }
      expect([res.status, await res.text()]).toEqual([200, 'hello from inside\n']);
      const anon = await fetch(`${url}/index.html`, { redirect: 'manual' });
      expect(anon.status).not.toBe(200);
      expect(await anon.text()).not.toContain('hello from inside');
    } finally {
      await call('POST', `/v1/sprites/${box}/services/inside-web/stop`);
    }
  }, 60_000);

  // Production's answer to a request without credentials is not documented (a browser login flow, most likely).
  emulatorOnly.it('the url without the token answers 401 with the JSON error, before reaching the sprite', async () => {
    const url: string = (await call('GET', `/v1/sprites/${box}`)).json.url;
    const res = await fetch(`${url}/`);
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe('unauthorized');
  });
});
