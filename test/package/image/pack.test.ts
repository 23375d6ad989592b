/**
 * The npm package as users run it: `npm pack` of the repository (its `prepare` builds dist/),
 * then `npx ./spritzer-*.tgz` in an empty temp dir, which installs the tarball and its production dependencies
 * (nothing to compile: the native packages are optional peers, docs/limits.md) into npx's cache. It checks that `--help` lists every flag the sources
 * declare, with its env name, and that the installed command serves. It installs from the registry, so it runs only
 * under `npm run test:pack` (SPRITZER_TEST_PACK=1, from `.ci/run`); everything it makes is removed afterwards: the
 * temp dir, the server's process group and npx's cache entry.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { packRepo } from '../../../scripts/image-context.ts';
import { api, execQuery, wsExec } from '../../support/server.ts';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../..', import.meta.url));
const enabled = process.env.SPRITZER_TEST_PACK === '1';
if (!enabled) console.warn('pack test skipped: it compiles native dependencies; run npm run test:pack (.ci/run does)');

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

/**
 * Removes npx's cache entries (`<npm cache>/_npx/<hash>`) that installed a spritzer tarball which is gone or lies
 * under `under`: npx keys entries by the spec (`./spritzer-0.1.0.tgz`), so a stale one would be reused by the next
 * run instead of the fresh tarball. Entries of other packages, and of tarballs still present elsewhere, stay.
 */
function dropNpxEntries(npxCache: string, under: string): void {
  if (!existsSync(npxCache)) return;
  for (const entry of readdirSync(npxCache)) {
    const dir = join(npxCache, entry);
    let spec: string | undefined;
    try {
      spec = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies?.spritzer;
    } catch {
      continue;
    }
    if (!spec?.startsWith('file:') || !spec.endsWith('.tgz')) continue;
    const target = resolve(dir, spec.slice('file:'.length));
    if (!existsSync(target) || target.startsWith(under + sep)) rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!enabled)('npx ./spritzer-*.tgz (the packed package)', () => {
  let temp: string;
  let tarball: string;
  let npxCache: string;
  let server: ChildProcess | undefined;
  let served = '';

  /** `npx --yes ./spritzer-….tgz …args` in the scratch dir, from the npm cache where it can. */
  const npxArgs = (...args: string[]) => ['--yes', '--prefer-offline', `./${basename(tarball)}`, ...args];

  beforeAll(async () => {
    temp = mkdtempSync(join(tmpdir(), 'spritzer-pack-test-'));
    const packed = packRepo(join(temp, 'pack'), repo);
    tarball = join(temp, 'project', basename(packed));
    mkdirSync(join(temp, 'project'));
    copyFileSync(packed, tarball);
    writeFileSync(join(temp, 'project', 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
    npxCache = join((await run('npm', ['config', 'get', 'cache'])).stdout.trim(), '_npx');
    dropNpxEntries(npxCache, temp);
  }, 300_000);

  afterAll(async () => {
    if (server?.pid && server.exitCode === null) {
      process.kill(-server.pid, 'SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    // npx installed the tarball into its cache: that entry goes with the temp dir.
    if (npxCache && temp) dropNpxEntries(npxCache, temp);
    if (temp) rmSync(temp, { recursive: true, force: true });
  });

  it('--help lists every flag the sources declare, each with its env name', async () => {
    const { stdout } = await run('npx', npxArgs('--help'), { cwd: join(temp, 'project'), timeout: 1_200_000, maxBuffer: 16 << 20 });
    const help = stdout.replace(/\s+/g, ' ');
    const { flags, envs } = declaredFlags();
    expect(flags.length).toBeGreaterThan(15);
    for (const flag of flags) expect(help, `flag ${flag}`).toContain(`${flag} `);
    for (const env of envs) expect(help, `env ${env}`).toContain(`env: ${env}`);
    expect(help).toContain('default: "127.0.0.1:4290"');
  }, 1_260_000);

  it('serves from the installed package on the port it prints: health, create, exec', async () => {
    server = spawn('npx', npxArgs('--addr', '127.0.0.1:0', '--log-level', 'warn'), { cwd: join(temp, 'project'), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
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
    // The archive tools' libraries (yauzl and pako, compressjs, liblzma inside the bundled just-bash) as installed.
    "printf 'hello\\n' > a && zip -q a.zip a && unzip -p a.zip a && xz -c a | xz -dc && bzip2 -c a | bunzip2 && sed 's/.*/\\U&/' a",
  ])('the installed shell engine answers %s as real bash does', async (script) => {
    expect(served).not.toBe('');
    const dir = mkdtempSync(join(temp, 'bash-'));
    const real = spawnSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8' });
    await wsExec(served, `/v1/sprites/packed/exec?${execQuery(['mkdir', '-p', '/tmp/case'])}`);
    const exec = await wsExec(served, `/v1/sprites/packed/exec?${execQuery(['bash', '-c', `cd /tmp/case && rm -rf ./* && ${script}`])}`);
    expect([exec.stdout, exec.exitCode]).toEqual([real.stdout, real.status]);
  }, 60_000);
});
