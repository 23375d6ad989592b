/**
 * `npx tsx scripts/image-context.ts DIR [TARBALL]`: a Docker build context that needs no registry, for building the
 * image offline (README "Container image"). DIR gets the packed package (`npm pack`, which builds dist/), this
 * checkout's package-lock.json and Dockerfile, the production node_modules of this checkout (already compiled for
 * its Node and libc), and a `.prebuilt` marker that makes the Dockerfile's build stage skip `npm ci`. It owns the
 * context only: building and running the image is the caller's (test/package/image/image.test.ts, or
 * `docker build DIR`).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in scripts/). */
const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Where a prepared context came from. */
export interface ImageContext {
  /** The context directory (absolute). */
  dir: string;
  /** The tarball it was unpacked from (absolute; when packed here, already removed with its temp dir). */
  tarball: string;
  /** How many production packages were copied into node_modules (nested ones inside their parent's copy). */
  packages: number;
}

/**
 * Runs `npm pack` of the repository into `dest` (the `prepare` script builds dist/ first) and resolves with the
 * tarball's absolute path. Throws when npm fails or leaves no tarball.
 */
export function packRepo(dest: string, repo = REPO): string {
  mkdirSync(dest, { recursive: true });
  execFileSync('npm', ['pack', '--pack-destination', dest, '--silent'], { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] });
  const tgz = readdirSync(dest).find((f) => /^spritzer-emulator-.*\.tgz$/.test(f));
  if (!tgz) throw new Error(`npm pack left no spritzer-emulator-*.tgz in ${dest}`);
  return join(dest, tgz);
}

/**
 * The optional packages of package.json (`peerDependencies`, optional in `peerDependenciesMeta`: the SQLite and PTY
 * bindings, dockerode) and what they depend on, as installed top-level in `repo`'s node_modules: the image carries
 * every feature, though installing the package (spritzer-emulator) leaves them out.
 */
function optionalPackages(repo: string): string[] {
  const read = (dir: string) => JSON.parse(readFileSync(join(repo, dir, 'package.json'), 'utf8'));
  /** Where Node would find `name` from package directory `from` (its own node_modules, then each parent's). */
  const locate = (from: string, name: string): string | undefined => {
    for (let dir = from; ; dir = dirname(dirname(dir))) {
      const candidate = join(dir === '.' ? '' : dir, 'node_modules', name);
      if (existsSync(join(repo, candidate, 'package.json'))) return candidate;
      if (dir === '.' || !dir.includes('node_modules')) return undefined;
    }
  };
  const seen = new Set<string>();
  const todo = Object.keys(read('.').peerDependencies ?? {}).map((name) => ['.', name]);
  while (todo.length) {
    const [from, name] = todo.pop()!;
    const dir = locate(from, name);
    if (!dir || seen.has(dir)) continue;
    seen.add(dir);
    const pkg = read(dir);
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) todo.push([dir, dep]);
  }
  return [...seen];
}

/**
 * The top-level directories of the repository's production dependencies (`npm ls --omit=dev --all --parseable`),
 * relative to `repo`; a package nested in another listed one is left out (its parent's copy holds it).
 */
export function productionPackages(repo = REPO): string[] {
  const out = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const listed = out.split('\n').filter(Boolean).map((p) => relative(repo, p)).filter((p) => p.startsWith(`node_modules${sep}`));
  const paths = [...new Set([...listed, ...optionalPackages(repo)])].sort();
  return paths.filter((p) => !paths.some((q) => q !== p && p.startsWith(q + sep)));
}

/**
 * Fills `dir` (created; must be empty or absent) with an offline build context. `tarball` defaults to a fresh
 * `npm pack` of the repository. Needs this checkout's node_modules (`npm ci`); throws when it is missing.
 */
export function prepareImageContext(dir: string, opts: { tarball?: string; repo?: string } = {}): ImageContext {
  const repo = opts.repo ?? REPO;
  if (!existsSync(join(repo, 'node_modules'))) throw new Error(`${repo}/node_modules is missing: run npm ci first`);
  mkdirSync(dir, { recursive: true });
  let packDir: string | undefined;
  const tarball = opts.tarball ?? packRepo((packDir = mkdtempSync(join(tmpdir(), 'spritzer-pack-'))), repo);
  try {
    execFileSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);
    copyFileSync(join(repo, 'package-lock.json'), join(dir, 'package-lock.json'));
    copyFileSync(join(repo, 'Dockerfile'), join(dir, 'Dockerfile'));
    // The workspaces under shims/ are links in the checkout; the tarball already holds them, bundled with just-bash,
    // and shims/ itself goes along for the Dockerfile's runtime stage, which copies it as a checkout's build has it.
    const packages = productionPackages(repo).filter((p) => !lstatSync(join(repo, p)).isSymbolicLink());
    for (const p of packages) cpSync(join(repo, p), join(dir, p), { recursive: true, verbatimSymlinks: true });
    cpSync(join(repo, 'shims'), join(dir, 'shims'), { recursive: true, filter: (src) => !src.endsWith('.test.ts') });
    writeFileSync(join(dir, '.prebuilt'), 'dist/ and production node_modules are already here: the build stage skips npm ci\n');
    writeFileSync(join(dir, '.dockerignore'), '.git\n');
    return { dir, tarball, packages: packages.length };
  } finally {
    // A tarball we packed ourselves is unpacked by now; the caller never sees its temp dir.
    if (packDir) rmSync(packDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, tarball] = process.argv.slice(2);
  if (!dir) {
    process.stderr.write('usage: npx tsx scripts/image-context.ts DIR [spritzer-emulator-*.tgz]\n');
    process.exit(2);
  }
  const ctx = prepareImageContext(resolve(dir), { tarball: tarball && resolve(tarball) });
  process.stdout.write(`image context in ${ctx.dir} (${ctx.packages} production packages)\n`);
}
