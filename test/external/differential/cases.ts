/**
 * The differential corpus's model: the case files (test/external/differential/cases/<group>.txt, the main set, and
 * test/external/differential/held-out/<group>.txt, the held-out set), the setup tree every case starts from, and the
 * comparison of one case's two outcomes (shell engine vs the sandbox engine's real bash).
 *
 * The held-out set is written the same way as the main one, from the documented behaviour, and is never fixed
 * against: its score measures whether fixes made for the main set generalise, so the report gives it only as counts.
 *
 * Case file format: one case per line; a case of several lines sits between a line `<<<` and a line `>>>`; lines
 * starting with `#` are comments. A directive line applies to the next case:
 * - `@exclude <reason>`: not run (its real output depends on the host, time or pids in a way no normaliser fixes);
 * - `@norm digits <reason>`: every run of digits in stdout reads `N` on both sides before comparing;
 * - `@norm sort <reason>`: stdout's lines are sorted on both sides (order the kernel chooses, e.g. readdir order);
 * - `@norm spaces <reason>`: runs of spaces read as one (column widths that follow such numbers).
 * @see test/external/differential/run.ts, docs/fidelity.md "Differential corpus"
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The tree every case starts from, made in the case's own empty directory by this script (plain mkdir, printf,
 * chmod, ln: commands both engines run alike; a setup difference is reported as a silent difference).
 */
export const SETUP = [
  "mkdir -p src/lib docs empty 'sp ace'",
  "printf 'hello world\\nfoo bar\\nHello again\\n' > a.txt",
  "printf 'line1\\nline2\\nline3\\nline4\\nline5\\nline6\\nline7\\nline8\\nline9\\nline10\\nline11\\nline12\\n' > lines.txt",
  "printf '3\\n1\\n2\\n10\\n1\\n' > nums.txt",
  "printf 'b,2,x\\na,1,y\\nc,3,z\\na,1,y\\n' > data.csv",
  "printf 'def main():\\n    print(\"hi\")\\n' > src/main.py",
  "printf 'export const x = 1;\\n// TODO fix\\n' > src/lib/util.ts",
  "printf '# Title\\nSome TODO here\\n' > docs/README.md",
  "printf 'x' > 'sp ace/f i.txt'",
  "printf '#!/bin/sh\\necho run \"$@\"\\n' > run.sh",
  'chmod 755 run.sh',
  'chmod 644 a.txt lines.txt nums.txt data.csv src/main.py src/lib/util.ts docs/README.md',
  'ln -s a.txt link.txt',
  "printf 'secret\\n' > .hidden",
].join(' && ');

/** One case: a script run as `bash -c script` in the case's directory. */
export interface Case {
  script: string;
  /** Why the case is not run, when it is not. */
  exclude?: string;
  /** Normalisers applied to both stdouts, with their reasons. */
  norms: Array<{ kind: 'digits' | 'sort' | 'spaces'; reason: string }>;
  /** File and line the case starts on. */
  where: string;
}

/** The two sets of case files: `main` (differences listed in full) and `held-out` (scored, never listed). */
export type CorpusSet = 'main' | 'held-out';

export interface Group {
  name: string;
  set: CorpusSet;
  cases: Case[];
}

/** The file tree a case left: relative path → `type mode [size sha "preview"]`. */
export type Tree = Record<string, string>;

/** What one engine did. `exit` is null when the case hung (closed after the runner's timeout). */
export interface Outcome {
  stdout: string;
  stderr: string;
  exit: number | null;
  hung: boolean;
}

/**
 * `unstable`: a silent difference that a second run of the same case on both engines did not repeat (the reference
 * or the shell engine answered differently from one run to the next, e.g. under load): listed in the report with the
 * first run's outputs, counted neither identical nor silent ({@link settleUnstable}).
 */
export type Verdict = 'identical' | 'loud' | 'silent' | 'unstable' | 'excluded';

/** One case's comparison, as the report lists it. */
export interface CaseResult {
  set: CorpusSet;
  group: string;
  index: number;
  where: string;
  script: string;
  verdict: Verdict;
  /** What differed: stdout, stderr, exit, tree, setup, hang. */
  differs: string[];
  reason?: string;
  shell?: Outcome & { tree: Tree; setupError?: string };
  reference?: Outcome & { tree: Tree; setupError?: string };
}

/**
 * Reads every `<group>.txt` under `dir`, in name order, as groups of `set` (a file `04-shell.txt` is group `shell`).
 * A case's `where` names the set's directory for the held-out set (`held-out/04-shell.txt:12`), the file alone for
 * the main set.
 */
export function loadCorpus(dir: string, set: CorpusSet = 'main'): Group[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => ({
      name: f.replace(/^\d+-/, '').replace(/\.txt$/, ''),
      set,
      cases: parseCases(readFileSync(join(dir, f), 'utf8'), set === 'main' ? f : `${set}/${f}`),
    }));
}

/** Parses one case file (format in this module's docstring). Throws on a `<<<` that never closes or an unknown directive. */
export function parseCases(text: string, file: string): Case[] {
  const lines = text.split('\n');
  const cases: Case[] = [];
  let pending: Pick<Case, 'exclude' | 'norms'> = { norms: [] };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || line.startsWith('#')) continue;
    const where = `${file}:${i + 1}`;
    if (line.startsWith('@exclude ')) {
      pending.exclude = line.slice(9).trim();
      continue;
    }
    if (line.startsWith('@norm ')) {
      const [, kind, ...why] = line.split(' ');
      if (kind !== 'digits' && kind !== 'sort' && kind !== 'spaces') throw new Error(`${where}: unknown normaliser ${kind}`);
      pending.norms.push({ kind, reason: why.join(' ') });
      continue;
    }
    if (line.startsWith('@')) throw new Error(`${where}: unknown directive ${line}`);
    let script = line;
    if (line === '<<<') {
      const end = lines.indexOf('>>>', i + 1);
      if (end < 0) throw new Error(`${where}: <<< without >>>`);
      script = lines.slice(i + 1, end).join('\n');
      i = end;
    }
    cases.push({ script, where, ...pending });
    pending = { norms: [] };
  }
  return cases;
}

/**
 * The kind of a stderr: `empty`, or the program its first line names (`grep: x: No such file…` → `grep`), with
 * `sh` and `bash` one program (`bash: line 1: x: command not found` names bash). Messages differ in wording
 * between implementations; which program complained, and whether anyone did, is what a user acts on.
 */
export function stderrKind(stderr: string): string {
  if (stderr === '') return 'empty';
  const first = stderr.split('\n')[0]!;
  const m = /^([^:\s]+):/.exec(first);
  const prog = m ? m[1]!.replace(/^.*\//, '') : 'other';
  return prog === 'sh' ? 'bash' : prog;
}

/**
 * Whether the shell engine refused loudly: its stderr carries the refusal that names `--exec sandbox` (the refusing
 * command exits 127 or 2, the engine's unit tests check that; the case's own status is its last command's).
 */
export function isLoud(o: Outcome): boolean {
  return o.exit !== null && /not available in the shell engine|--exec sandbox/.test(o.stderr) && !/--shell-timeout/.test(o.stderr);
}

function normalise(stdout: string, norms: Case['norms']): string {
  let s = stdout;
  for (const n of norms) {
    if (n.kind === 'digits') s = s.replace(/\d+/g, 'N');
    if (n.kind === 'sort') s = s.split('\n').sort().join('\n');
    if (n.kind === 'spaces') s = s.replace(/ +/g, ' ');
  }
  return s;
}

const sameTree = (a: Tree, b: Tree) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/** Compares one case's shell outcome with the reference's; `at` places the case (its set, group and 1-based index). */
export function compareCase(
  at: { set: CorpusSet; group: string; index: number },
  c: Case,
  shell: Outcome & { tree: Tree; setupError?: string },
  reference: Outcome & { tree: Tree; setupError?: string },
): CaseResult {
  const base = { set: at.set, group: at.group, index: at.index, where: c.where, script: c.script };
  if (c.exclude) return { ...base, verdict: 'excluded', differs: [], reason: c.exclude };
  const differs: string[] = [];
  if (shell.setupError !== reference.setupError) differs.push('setup');
  if (shell.hung || (shell.exit === 124 && /--shell-timeout/.test(shell.stderr))) differs.push('hang');
  if (normalise(shell.stdout, c.norms) !== normalise(reference.stdout, c.norms)) differs.push('stdout');
  if (stderrKind(shell.stderr) !== stderrKind(reference.stderr)) differs.push('stderr');
  if (shell.exit !== reference.exit) differs.push('exit');
  if (!sameTree(shell.tree, reference.tree)) differs.push('tree');
  const reason = c.norms.length ? c.norms.map((n) => `${n.kind}: ${n.reason}`).join('; ') : undefined;
  if (differs.length === 0) return { ...base, verdict: 'identical', differs, ...(reason ? { reason } : {}), shell, reference };
  const verdict: Verdict = isLoud(shell) && !differs.includes('hang') ? 'loud' : 'silent';
  return { ...base, verdict, differs, ...(reason ? { reason } : {}), shell, reference };
}

/**
 * A silent difference is run once more on both engines (in a fresh copy of its directory): when the second run
 * agrees, the case is `unstable` — one engine's answer changed between runs, which a gate must not read as a
 * regression nor as a pass; the first run's outputs are kept for the report. Otherwise the first verdict stands.
 */
export function settleUnstable(first: CaseResult, again: CaseResult): CaseResult {
  return again.verdict === 'identical' ? { ...first, verdict: 'unstable' } : first;
}
