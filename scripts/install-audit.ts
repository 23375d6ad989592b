/**
 * `npm install` of a packed tarball into an empty project, as a user does it, and what that install built: the
 * lifecycle scripts npm ran (from its verbose log), the lines of native toolchains in that log, and the native
 * artefacts (`binding.gyp`, `*.node`) among the installed packages. Used by `npm run test:pack`
 * (test/package/image/pack.test.ts), which fails on any of them, and by `npm run bench:install`, which times it.
 * It owns the install command and the reading of its log; the caller owns the directories.
 */
import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** One lifecycle script npm ran: `npm info run PKG@VERSION EVENT LOCATION COMMAND` in its verbose log. */
export interface ScriptRun {
  pkg: string;
  event: string;
  location: string;
  command: string;
}

/** What one install did. */
export interface InstallResult {
  /** Wall-clock time of `npm install`, in milliseconds. */
  ms: number;
  /** npm's exit code. */
  status: number | null;
  /** npm's stdout and stderr, interleaved (verbose: every fetch, every script and its output). */
  log: string;
}

/**
 * Lifecycle scripts an install of spritzer may run, each with why it builds nothing: spritzer's own postinstall
 * (checks that the bundled just-bash carries its patches), and esbuild's (tsx's compiler; it checks that the
 * platform's prebuilt binary, an optional dependency, is there).
 */
export const ALLOWED_SCRIPTS: ReadonlyArray<{ pkg: RegExp; event: string }> = [
  { pkg: /^spritzer-emulator@/, event: 'postinstall' },
  { pkg: /^esbuild@/, event: 'postinstall' },
];

/** Log lines that only a native build prints: node-gyp and gyp, prebuild-install's fallback, compilers, make. */
const NATIVE_LINE = /(^|\s)(gyp (info|verb|ERR!|WARN)|node-gyp|prebuild-install|node-pre-gyp|cmake-js|make: Entering directory|(g\+\+|c\+\+|cc|clang) -o )/;

/** The lifecycle scripts in an npm `--loglevel=verbose` log (the start line of each; npm logs the end separately). */
export function scriptsRun(log: string): ScriptRun[] {
  const runs: ScriptRun[] = [];
  for (const m of log.matchAll(/^npm info run (\S+) (\S+) (\S+) (.+)$/gm)) {
    // The end of a script is logged as `npm info run PKG EVENT { code: 0, signal: null }`.
    if (m[3] === '{') continue;
    runs.push({ pkg: m[1]!, event: m[2]!, location: m[3]!, command: m[4]! });
  }
  return runs;
}

/** Paths (relative to `dir`) of `binding.gyp` files and compiled addons (`*.node`) under `dir`/node_modules. */
export function nativeFiles(dir: string): string[] {
  const root = join(dir, 'node_modules');
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === 'binding.gyp' || e.name.endsWith('.node')) found.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(root);
  return found.sort();
}

/**
 * Everything in an install's verbose `log` and its `dir` that says native code was (or could be) built: lifecycle
 * scripts outside {@link ALLOWED_SCRIPTS}, toolchain lines, and {@link nativeFiles}. Empty when the install built
 * nothing.
 */
export function nativeBuildEvidence(log: string, dir: string): string[] {
  const out: string[] = [];
  for (const r of scriptsRun(log)) {
    if (!ALLOWED_SCRIPTS.some((a) => a.pkg.test(r.pkg) && a.event === r.event)) out.push(`script: ${r.pkg} ${r.event} (${r.location}): ${r.command}`);
  }
  for (const line of log.split('\n')) if (NATIVE_LINE.test(line)) out.push(`log: ${line.trim().slice(0, 200)}`);
  for (const f of nativeFiles(dir)) out.push(`file: ${f}`);
  return out;
}

/**
 * Runs `npm install TARBALL` in `dir` (which gets a bare package.json), with every script's output and every fetch
 * in the log (`--foreground-scripts --loglevel=verbose`), from the npm cache where it can (`--prefer-offline`); a
 * `cache` directory replaces npm's own (an empty one makes a cold-cache install). Resolves when npm exits.
 */
export function installTarball(tarball: string, dir: string, opts: { cache?: string } = {}): Promise<InstallResult> {
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
  const args = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--foreground-scripts', '--loglevel=verbose', ...(opts.cache ? ['--cache', opts.cache] : []), tarball];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (c) => (log += c));
    child.stderr.on('data', (c) => (log += c));
    child.once('error', reject);
    child.once('close', (status) => resolve({ ms: performance.now() - started, status, log }));
  });
}
