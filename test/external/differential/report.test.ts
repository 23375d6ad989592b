/**
 * The differential corpus's model and report, without engines: a held-out set loads as its own set, and the report
 * scores it in its own table and closing-line part while never showing one of its cases or outputs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compareCase, loadCorpus, settleUnstable, type CaseResult, type CorpusSet, type Outcome, type Tree } from './cases.ts';
import { renderReport } from './report.ts';

const side = (stdout: string): Outcome & { tree: Tree } => ({ stdout, stderr: '', exit: 0, hung: false, tree: {} });

/** One compared case: `same` decides whether the shell engine printed what bash printed. */
function result(set: CorpusSet, group: string, index: number, script: string, same: boolean): CaseResult {
  const c = { script, norms: [], where: `${set === 'main' ? '' : `${set}/`}01-${group}.txt:${index}` };
  return compareCase({ set, group, index }, c, side(same ? 'bash-out\n' : 'SHELL-SECRET-OUT\n'), side('bash-out\n'));
}

describe('differential held-out set', () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('loads a held-out directory as groups of the held-out set, each case placed under held-out/', () => {
    dir = mkdtempSync(join(tmpdir(), 'differential-'));
    writeFileSync(join(dir, '04-shell.txt'), '# comment\necho a\n<<<\necho b\necho c\n>>>\n');
    const [group] = loadCorpus(dir, 'held-out');
    expect(group).toMatchObject({ name: 'shell', set: 'held-out' });
    expect(group!.cases.map((c) => [c.where, c.script])).toEqual([
      ['held-out/04-shell.txt:2', 'echo a'],
      ['held-out/04-shell.txt:3', 'echo b\necho c'],
    ]);
    expect(loadCorpus(dir)[0]!.cases[0]!.where).toBe('04-shell.txt:2');
  });

  it('scores the held-out set in its own table and closing-line part, and never lists its cases', () => {
    const results = [
      result('main', 'files', 1, 'ls main-identical', true),
      result('main', 'files', 2, 'ls main-different', false),
      result('held-out', 'files', 1, 'ls held-identical', true),
      result('held-out', 'files', 2, 'ls HELD-DIFFERENT-SCRIPT', false),
      result('held-out', 'text', 1, 'sort HELD-OTHER-SCRIPT', false),
    ];
    const report = renderReport(results, { seconds: 1 });
    expect(report.summary).toBe('differential: 1/2 identical (50.0%), 1 silent, 0 loud; held-out: 1/3 identical (33.3%), 2 silent');
    expect(report.markdown.trimEnd().split('\n').at(-1)).toBe(report.summary);
    expect(report.silent).toBe(1);
    expect(report.heldOutTable).toContain('| files | 2 | 1 | 50.0% | 1 | 0 | 0 |');
    expect(report.heldOutTable).toContain('| text | 1 | 0 | 0.0% | 1 | 0 | 0 |');
    expect(report.table).toContain('| **all** | 2 | 1 | 50.0% | 1 | 0 | 0 |');
    expect(report.markdown).toContain('ls main-different');
    expect(report.markdown).not.toMatch(/HELD-DIFFERENT-SCRIPT|HELD-OTHER-SCRIPT|held-out\/01-/);
    // The main set's difference shows the shell's output; the held-out ones' outputs appear nowhere.
    expect(report.markdown.split('SHELL-SECRET-OUT').length - 1).toBe(1);
  });

  it('gives only the held-out part when only the held-out set ran', () => {
    const report = renderReport([result('held-out', 'env', 1, 'id', true)], { seconds: 1 });
    expect(report.summary).toBe('held-out: 1/1 identical (100.0%), 0 silent');
    expect(report.table).toBe('');
  });
});

describe('differential unstable cases', () => {
  it('a silent difference whose second run agrees is unstable: listed with its first outputs, neither identical nor silent', () => {
    const first = result('main', 'text', 1, 'sort FLAKY', false);
    const settled = settleUnstable(first, result('main', 'text', 1, 'sort FLAKY', true));
    expect(settled.verdict).toBe('unstable');
    const report = renderReport([result('main', 'text', 2, 'sort ok', true), settled], { seconds: 1 });
    expect(report.summary).toBe('differential: 1/2 identical (50.0%), 0 silent, 0 loud, 1 unstable');
    expect(report.silent).toBe(0);
    expect(report.markdown).toContain('### unstable: text-1');
    expect(report.markdown).toContain('SHELL-SECRET-OUT');
  });

  it('a silent difference that a second run repeats stays silent', () => {
    const first = result('main', 'text', 1, 'sort WRONG', false);
    expect(settleUnstable(first, result('main', 'text', 1, 'sort WRONG', false)).verdict).toBe('silent');
  });
});
