import { describe, it, expect } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';
import { compileNode } from './node-syntax.ts';

describe("node's compile step", () => {
  it("reports a syntax error in V8's words with node's place, line and carets", () => {
    expect(compileNode('let x = ;')).toEqual({ kind: 'error', report: "[eval]:1\nlet x = ;\n        ^\n\nSyntaxError: Unexpected token ';'\n\nNode.js v22.0.0\n" });
    expect(compileNode('console.log(')).toEqual({ kind: 'error', report: '[eval]:1\nconsole.log(\n            \n\nSyntaxError: Unexpected end of input\n\nNode.js v22.0.0\n' });
    expect(compileNode('const a = {\n  b: 1,\n', '/w/s.js')).toEqual({ kind: 'error', report: '/w/s.js:3\n\n\n\nSyntaxError: Unexpected end of input\n\nNode.js v22.0.0\n' });
  });

  it('tells a script (await only inside async functions, a top-level return in a file) from module-only code', () => {
    expect(compileNode('async function f() { await g() } f()')).toEqual({ kind: 'script' });
    expect(compileNode('return 1', '/w/f.js')).toEqual({ kind: 'script' });
    expect(compileNode('await Promise.resolve(1)')).toEqual({ kind: 'module' });
    expect(compileNode('export const a = 1', '/w/m.js')).toEqual({ kind: 'module' });
  });

  it('node -e and node FILE end with the report and status 1; code with await inside an async function runs as a script (js-exec --script)', async () => {
    const r = await runShell(`node -e 'console.log("a" "b")'; echo "rc=$?"; node -e 'var x = 1; async function f() { await null; return this === undefined } f().then((v) => console.log(x, v))'; printf 'await Promise.resolve();\\nconsole.log("tla");\\n' > /tmp/t.js; node /tmp/t.js`);
    expect(r).toEqual({ stdout: 'rc=1\n1 false\ntla\n', stderr: '[eval]:1\nconsole.log("a" "b")\n            ^^^\n\nSyntaxError: missing ) after argument list\n\nNode.js v22.0.0\n', exit: 0 });
  }, 60_000);
});
