/**
 * `npm run bench:install -- [options]`: what a user waits for between `npm install` of spritzer's packed tarball and
 * a first answer. Each subject is installed into an empty project (scripts/install-audit.ts: `npm install TARBALL
 * --prefer-offline`, verbose), timed, then its command is started on a free port and timed to its first answer to
 * `GET /v1/sprites`. Subjects, in the same run and alternated round by round so that the machine's load falls on all:
 * the current tarball (`npm pack` of this checkout, or `--tarball`), a plain Express 5 app packed and installed the
 * same way (the floor: a package with one framework dependency and a route), and, with `--previous`, an older
 * spritzer tarball (e.g. one whose install compiled node-liblzma). Warm: npm's own cache, primed by one untimed
 * install of each subject first. Cold: an empty `--cache` directory, so every package comes from the registry.
 * Prints absolute medians, ratios to the Express floor, whether anything native was built, and the target: the
 * installed command answers within 10 s of the install's end. It decides nothing and asserts nothing: never part of
 * `npm test`. Figures: docs/performance.md "Install".
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { packRepo } from '../scripts/image-context.ts';
import { installTarball, nativeBuildEvidence } from '../scripts/install-audit.ts';

const HELP = `usage: npm run bench:install -- [options]
  --tarball FILE   the spritzer tarball to measure (default: npm pack of this checkout, which builds dist/)
  --previous FILE  also measure this older spritzer tarball
  --rounds N       timed warm-cache installs of each subject (default 3)
  --no-cold        skip the cold-cache install (an empty npm cache: every package from the registry)
  --markdown       print the table as Markdown`;

const { values } = parseArgs({
  options: {
    tarball: { type: 'string' },
    previous: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    'no-cold': { type: 'boolean', default: false },
    markdown: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

/** The target: seconds from the end of `npm install` to the installed command's first answer. */
const TARGET_S = 10;
const TOKEN = 'bench-install';
const require = createRequire(import.meta.url);

/** One thing installed and started. */
interface Subject {
  label: string;
  tarball: string;
  /** The command under node_modules/.bin and its arguments (it must print its URL on a `listening on` line). */
  bin: string;
  args: string[];
}

/** One timed install of a subject and its first answer. */
interface Sample {
  installMs: number;
  answerMs: number;
  native: string[];
}

/**
 * The Express floor: a package whose only dependency is the Express 5 spritzer uses, with a bin that serves
 * `GET /v1/sprites` and prints its URL as spritzer does; packed into `dir`, resolves to the tarball's path.
 */
async function packExpressBaseline(dir: string): Promise<string> {
  const src = join(dir, 'express-floor');
  mkdirSync(join(src, 'bin'), { recursive: true });
  const express = (require('express/package.json') as { version: string }).version;
  writeFileSync(join(src, 'package.json'), JSON.stringify({ name: 'express-floor', version: '1.0.0', type: 'module', bin: { 'express-floor': 'bin/serve.mjs' }, dependencies: { express } }, null, 2));
  writeFileSync(
    join(src, 'bin/serve.mjs'),
    [
      '#!/usr/bin/env node',
      "import express from 'express';",
      'const app = express();',
      "app.get('/v1/sprites', (_req, res) => res.json({ sprites: [], has_more: false }));",
      "const server = app.listen(0, '127.0.0.1', () => console.log(`express-floor listening on http://127.0.0.1:${server.address().port}`));",
      "process.on('SIGTERM', () => server.close(() => process.exit(0)));",
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  await run('npm', ['pack', '--silent', '--pack-destination', dir], src);
  return join(dir, 'express-floor-1.0.0.tgz');
}

/** Runs a command to its end; rejects on a non-zero exit with its output. */
function run(cmd: string, args: string[], cwd: string): Promise<string> {
  return new Promise((res, rej) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.once('close', (code) => (code === 0 ? res(out) : rej(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${out.slice(-2000)}`))));
  });
}

/**
 * Starts `subject`'s installed command in `project` (its own process group) and resolves with the milliseconds from
 * the call to the first 200 answer to `GET /v1/sprites`, and the process (the caller stops it).
 */
async function firstAnswer(subject: Subject, project: string): Promise<{ ms: number; child: ChildProcess }> {
  const started = performance.now();
  const child = spawn(join(project, 'node_modules/.bin', subject.bin), subject.args, { cwd: project, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c) => (err += c));
  const url = await new Promise<string>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`${subject.label}: no listening line in 120 s; stderr: ${err.slice(-2000)}`)), 120_000);
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
      if (m && m[2] !== '0') {
        clearTimeout(timer);
        res(m[1]!);
      }
    });
    child.once('exit', (code) => rej(new Error(`${subject.label} exited ${code}; stderr: ${err.slice(-2000)}`)));
  });
  for (;;) {
    const r = await fetch(`${url}/v1/sprites`, { headers: { Authorization: `Bearer ${TOKEN}` } }).catch(() => undefined);
    if (r?.status === 200) return { ms: performance.now() - started, child };
    await new Promise((w) => setTimeout(w, 10));
  }
}

/** Stops a process group started by {@link firstAnswer} and waits for its leader. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const gone = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid, 'SIGTERM');
  await Promise.race([gone, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
}

/** One install of `subject` into a fresh project under `work` (with `cache` as npm's cache when given), then its first answer. */
async function sample(subject: Subject, work: string, cache?: string): Promise<Sample> {
  const project = mkdtempSync(join(work, 'project-'));
  try {
    const install = await installTarball(subject.tarball, project, { cache });
    if (install.status !== 0) throw new Error(`${subject.label}: npm install exited ${install.status}: ${install.log.slice(-3000)}`);
    const { ms, child } = await firstAnswer(subject, project);
    await stop(child);
    return { installMs: install.ms, answerMs: ms, native: nativeBuildEvidence(install.log, project) };
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const sec = (ms: number | undefined) => (ms === undefined ? '–' : `${(ms / 1000).toFixed(1)} s`);
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? '–' : `${(a / b).toFixed(2)}×`);

const work = mkdtempSync(join(tmpdir(), 'bench-install-'));
try {
  const tarball = values.tarball ? resolve(values.tarball) : (console.error('packing this checkout (npm pack builds dist/)…'), packRepo(join(work, 'pack')));
  const express = await packExpressBaseline(work);
  const spritzerArgs = ['--addr', '127.0.0.1:0', '--token', TOKEN, '--log-level', 'warn'];
  const subjects: Subject[] = [
    { label: 'spritzer (this tarball)', tarball, bin: 'spritzer', args: spritzerArgs },
    ...(values.previous ? [{ label: `spritzer (previous: ${values.previous.replace(/^.*\//, '')})`, tarball: resolve(values.previous), bin: 'spritzer', args: spritzerArgs }] : []),
    { label: `plain Express ${(require('express/package.json') as { version: string }).version} app`, tarball: express, bin: 'express-floor', args: [] },
  ];
  const rounds = Math.max(1, Number(values.rounds));
  const warm = new Map<Subject, Sample[]>(subjects.map((s) => [s, []]));
  const cold = new Map<Subject, Sample>();
  console.error('priming the npm cache (one untimed install of each)…');
  for (const s of subjects) await sample(s, work);
  for (let r = 1; r <= rounds; r++) {
    for (const s of subjects) {
      const x = await sample(s, work);
      warm.get(s)!.push(x);
      console.error(`round ${r}/${rounds} ${s.label}: install ${sec(x.installMs)}, first answer ${sec(x.answerMs)}${x.native.length ? `, NATIVE: ${x.native.length} signs` : ''}`);
    }
  }
  if (!values['no-cold']) {
    for (const s of subjects) {
      const cache = mkdtempSync(join(work, 'cache-'));
      try {
        const x = await sample(s, work, cache);
        cold.set(s, x);
        console.error(`cold ${s.label}: install ${sec(x.installMs)}, first answer ${sec(x.answerMs)}`);
      } finally {
        rmSync(cache, { recursive: true, force: true });
      }
    }
  }

  const floor = subjects[subjects.length - 1]!;
  const floorWarm = median(warm.get(floor)!.map((x) => x.installMs));
  const floorAnswer = median(warm.get(floor)!.map((x) => x.answerMs));
  const floorCold = cold.get(floor)?.installMs;
  const head = ['subject', 'npm install, warm cache', '÷ Express', 'npm install, cold cache', '÷ Express', 'install end → first GET /v1/sprites', '÷ Express', `target ≤ ${TARGET_S} s`, 'native build'];
  const rows = subjects.map((s) => {
    const w = median(warm.get(s)!.map((x) => x.installMs));
    const a = median(warm.get(s)!.map((x) => x.answerMs));
    const c = cold.get(s)?.installMs;
    const native = [...warm.get(s)!, ...(cold.has(s) ? [cold.get(s)!] : [])].flatMap((x) => x.native);
    const isSpritzer = s !== floor;
    return [s.label, sec(w), ratio(w, floorWarm), sec(c), ratio(c, floorCold), sec(a), ratio(a, floorAnswer), isSpritzer ? (a <= TARGET_S * 1000 ? 'met' : 'missed') : '', native.length ? `yes (${[...new Set(native.filter((n) => n.startsWith('script:')).map((n) => n.replace(/^script: (\S+ \S+).*$/, '$1')))].join(', ') || native[0]})` : 'none'];
  });
  const npm = (await run('npm', ['--version'], work)).trim();
  console.log(`\nnpm install of the packed tarball into an empty project, then its command to a first answer: median of ${rounds} warm run${rounds > 1 ? 's' : ''} (same run, alternated)${cold.size ? ', one cold' : ''}; node ${process.version}, npm ${npm}\n`);
  if (values.markdown) {
    console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  } else {
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    for (const r of [head, ...rows]) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
