/**
 * The npm package as users install it: `npm pack` of the repository (its `prepare` builds dist/), then
 * `npm install ./spritzer-emulator-*.tgz` in an empty temp project, which installs the tarball and its production
 * dependencies. It checks that the install built nothing native (scripts/install-audit.ts reads npm's verbose log:
 * no lifecycle script but spritzer's and esbuild's postinstall, no node-gyp, gyp or prebuild-install line, no
 * `binding.gyp` or `.node` file installed; docs/limits.md "Optional packages"), that `npx spritzer-emulator` finds
 * the package's `spritzer` command and its `--help` lists every flag the sources declare, with its env name, and that
 * the installed command serves. It installs from the registry, so it runs only under `npm run test:pack`
 * (SPRITZER_TEST_PACK=1, from `.ci/run`); everything it makes is removed afterwards: the temp dir and the server's
 * process group.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { packRepo } from '../../../scripts/image-context.ts';
import { installTarball, nativeBuildEvidence, type InstallResult } from '../../../scripts/install-audit.ts';
import { api, execQuery, wsExec } from '../../support/server.ts';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../..', import.meta.url));
const enabled = process.env.SPRITZER_TEST_PACK === '1';
if (!enabled) console.warn('pack test skipped: it installs from the npm registry; run npm run test:pack (.ci/run does)');

/** Every `--flag` and env name the command's sources declare (commander Options in src/, tests excluded). */
function declaredFlags(): { flags: string[]; envs: string[] } {
  const flags = new Set<string>();
  const envs = new Set<string>();
  const files = readdirSync(join(repo, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  for (const f of files) {
    const text = readFileSync(join(repo, 'src', f), 'utf8');
    if (!text.includes("from 'commander'")) continue;
    for (const m of text.matchAll(/(?:new Option|\.option)\(\s*'(--[a-z][\w-]*)/g)) flags.add(m[1]);
    for (const m of text.matchAll(/\.env\('([A-Z][A-Z0-9_]*)'\)/g)) envs.add(m[1]);
  }
  return { flags: [...flags].sort(), envs: [...envs].sort() };
}

describe.skipIf(!enabled)('npm install ./spritzer-emulator-*.tgz (the packed package)', () => {
  let temp: string;
  let project: string;
  let install: InstallResult;
  let server: ChildProcess | undefined;
  let served = '';

  /**
   * `npx spritzer-emulator …args` in the project: the installed package's one bin, `spritzer` (npx runs a package's
   * only bin whatever its name). Not found there, npx would fail rather than download: no TTY to ask, and no
   * `spritzer-emulator` on the registry yet. (`npx --no` would take the arguments as its own.)
   */
  const npxArgs = (...args: string[]) => ['spritzer-emulator', ...args];

  beforeAll(async () => {
    temp = mkdtempSync(join(tmpdir(), 'spritzer-pack-test-'));
    const tarball = packRepo(join(temp, 'pack'), repo);
    project = join(temp, 'project');
    mkdirSync(project);
    install = await installTarball(tarball, project);
  }, 1_200_000);

  afterAll(async () => {
    if (server?.pid && server.exitCode === null) {
      process.kill(-server.pid, 'SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    if (temp) rmSync(temp, { recursive: true, force: true });
  });

  it('installs without building anything native: no install script, no toolchain, no addon', () => {
    expect(install.status, install.log.slice(-4000)).toBe(0);
    expect(nativeBuildEvidence(install.log, project)).toEqual([]);
  });

  it('npx spritzer-emulator runs the spritzer command; --help lists every flag the sources declare, each with its env name', async () => {
    const { stdout } = await run('npx', npxArgs('--help'), { cwd: project, timeout: 120_000, maxBuffer: 16 << 20 });
    const help = stdout.replace(/\s+/g, ' ');
    const { flags, envs } = declaredFlags();
    expect(flags.length).toBeGreaterThan(15);
    for (const flag of flags) expect(help, `flag ${flag}`).toContain(`${flag} `);
    for (const env of envs) expect(help, `env ${env}`).toContain(`env: ${env}`);
    expect(help).toContain('default: "127.0.0.1:4290"');
  }, 180_000);

  it('serves from the installed package on the port it prints: health, create, exec', async () => {
    server = spawn('npx', npxArgs('--addr', '127.0.0.1:0', '--log-level', 'warn'), { cwd: project, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    server.stderr!.on('data', (c) => (err += c));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start-up line within 120 s; stderr: ${err}`)), 120_000);
      server!.stdout!.on('data', (c) => {
        out += c;
        const m = /spritzer listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
        if (m && m[2] !== '0') {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      server!.once('exit', (code) => reject(new Error(`exited ${code} before serving; stderr: ${err}`)));
    });
    expect(out).toContain(`export SPRITES_BASE_URL=${url}`);
    const health = await fetch(`${url}/_spritzer/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { status: string }).status).toBe('ok');
    expect((await api(url)('POST', '/v1/sprites', { name: 'packed' })).status).toBe(201);
    const exec = await wsExec(url, `/v1/sprites/packed/exec?${execQuery(['echo', 'from-tarball'])}`);
    expect(exec.stdout).toBe('from-tarball\n');
    expect(exec.exitCode).toBe(0);
    served = url;
  }, 180_000);

  // The shell engine as installed (its GNU commands, script rewrites and patched interpreter ship inside the
  // package) answers as the host's real bash and GNU tools do, on a few command lines of the differential corpus's
  // kinds; the last ones need the interpreter patches (patches/just-bash) in the bundled just-bash.
  it.each([
    "printf 'a\\nb\\n' > x; printf 'a\\nc\\n' > y; diff x y; echo \"st=$?\"",
    "printf 'b\\nB\\na\\n_\\n' | sort",
    "printf 'one\\ntwo\\n' > f; sed '1i\\header' f; sed '$a\\footer' f",
    "x=$'a\\nb'; echo \"$x\" | wc -l",
    "printf 'x\\0y\\n' | tr '\\0' '-'",
    "printf 'a\\na\\nb\\n' | uniq -c",
    'mkdir d1 d2 && touch f1 && echo */ && for d in */; do echo "$d"; done',
    // The archive tools' libraries as installed (yauzl and pako, compressjs, liblzma in WebAssembly bundled with
    // just-bash; tar -J goes through just-bash's own xz).
    "printf 'hello\\n' > a && zip -q a.zip a && unzip -p a.zip a && xz -c a | xz -dc && bzip2 -c a | bunzip2 && sed 's/.*/\\U&/' a",
    "printf 'hello\\n' > a && xz -9 -c a | od -An -tx1 && tar -cJf t.txz a && rm a && tar -xJf t.txz && cat a && zstd -q -c a | zstd -dc",
  ])('the installed shell engine answers %s as real bash does', async (script) => {
    expect(served).not.toBe('');
    const dir = mkdtempSync(join(temp, 'bash-'));
    const real = spawnSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8' });
    await wsExec(served, `/v1/sprites/packed/exec?${execQuery(['mkdir', '-p', '/tmp/case'])}`);
    const exec = await wsExec(served, `/v1/sprites/packed/exec?${execQuery(['bash', '-c', `cd /tmp/case && rm -rf ./* && ${script}`])}`);
    expect([exec.stdout, exec.exitCode]).toEqual([real.stdout, real.status]);
  }, 60_000);
});
