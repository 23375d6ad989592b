import { describe, it, expect } from 'vitest';
import { runShellJoined } from '../../../../../test/support/shell-run.ts';
import { withNodeOutputOrder } from './node-streams.ts';

const M = '\u001b]spritzer-node;abc;';

describe('node output order', () => {
  it('takes the tags off stderr and orders the runs by the stdout written before each write', () => {
    const r = withNodeOutputOrder({ stdout: '1\n3\n', stderr: `${M}2;2\u00072\n`, exitCode: 0 }, M);
    expect(r).toEqual({ stdout: '1\n3\n', stderr: '2\n', exitCode: 0, outputOrder: [2, 2] });
  });

  it('puts untagged stderr (what the worker wrote itself) after all of stdout, and keeps a marker not followed by a tag as text', () => {
    const r = withNodeOutputOrder({ stdout: 'ab', stderr: `${M}0;1\u0007x${M}zz\nError: e\n`, exitCode: 1 }, M);
    expect(r.stderr).toBe(`x${M}zz\nError: e\n`);
    expect((r as { outputOrder?: number[] }).outputOrder).toEqual([0, 1, 2, M.length, 0, 12]);
  });

  it('leaves a result without tags alone', () => {
    const plain = { stdout: 'a', stderr: 'b', exitCode: 0 };
    expect(withNodeOutputOrder(plain, M)).toBe(plain);
  });

  it("node's console and process.stdout/stderr writes reach 2>&1 and |& in program order", async () => {
    const r = await runShellJoined(`node -e 'console.log(1); console.error(2); console.log(3); process.stdout.write("é"); process.stderr.write("x\\n")' 2>&1; node -e 'console.warn("w"); console.log("o")' |& cat; node -e 'console.error("e"); console.log("o")' 2>/dev/null`);
    expect(r).toMatchObject({ stdout: '1\n2\n3\néx\nw\no\no\n', stderr: '', exit: 0 });
  });
});
