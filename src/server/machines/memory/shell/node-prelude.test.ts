import { describe, it, expect } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

describe("node's event loop", () => {
  it('timers wait their time; immediates, ticks and microtasks come in node order; an interval runs until cleared', async () => {
    const started = Date.now();
    const r = await runShell(`node -e 'const t = Date.now(); setTimeout(() => console.log("waited", Date.now() - t >= 300), 300); setTimeout(() => console.log("b"), 100); setTimeout(() => console.log("a"), 50); setImmediate(() => console.log("imm")); process.nextTick(() => console.log("tick")); Promise.resolve().then(() => console.log("micro")); console.log("sync")'; node -e 'let n = 0; const id = setInterval(() => { console.log("i", ++n); if (n === 3) clearInterval(id) }, 20); setTimeout(() => { Promise.resolve().then(() => console.log("after t")); console.log("t") }, 5); setTimeout(() => console.log("t2"), 5)'`);
    expect(r).toEqual({ stdout: 'sync\ntick\nmicro\nimm\na\nb\nwaited true\nt\nafter t\nt2\ni 1\ni 2\ni 3\n', stderr: '', exit: 0 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  }, 60_000);

  it('timeout ends a program waiting on a timer (124); an unref-ed timer keeps nothing alive; exit and exitCode from a timer', async () => {
    const r = await runShell(`timeout 0.3 node -e 'setTimeout(() => {}, 5000)'; echo "rc=$?"; node -e 'setTimeout(() => console.log("never"), 5000).unref(); console.log("done")'; node -e 'setTimeout(() => { process.exitCode = 4 }, 10)'; echo "rc=$?"; node -e 'setTimeout(() => process.exit(5), 10); setTimeout(() => console.log("never"), 5000)'; echo "rc=$?"`);
    expect(r).toEqual({ stdout: 'rc=124\ndone\nrc=4\nrc=5\n', stderr: '', exit: 0 });
  }, 60_000);
});

describe('unhandled rejections and uncaught errors', () => {
  it('an unhandled rejection ends node with its report and status 1; handled ones, awaited in try, do not', async () => {
    const r = await runShell(`node -e "Promise.reject(new Error('rej')); setTimeout(() => console.log('never'), 10)"; echo "rc=$?"; node -e 'async function main() { throw new TypeError("bad") } main()' 2>&1 | head -2; node -e 'new Promise((res, rej) => rej(new RangeError("r")))' 2>&1 | sed -n 5p; node -e 'Promise.resolve().then(() => { throw new Error("in then") })' 2>&1 | sed -n 5p; node -e '(async () => { try { await Promise.reject(new Error("x")) } catch (e) { console.log("caught", e.message) } })()'; node -e 'Promise.reject(1).catch(() => console.log("c")); async function f() { throw new Error("y") } f().catch((e) => console.log(e.message)); Promise.all([Promise.reject(new Error("z"))]).then(null, (e) => console.log("all", e.message))'; echo "rc=$?"`);
    expect(r.stderr).toBe("[eval]:1\nPromise.reject(new Error('rej')); setTimeout(() => console.log('never'), 10)\n               ^\n\nError: rej\n    at [eval]:1:16\n\nNode.js v22.0.0\n");
    expect(r.stdout).toBe('rc=1\n[eval]:1\nasync function main() { throw new TypeError("bad") } main()\nRangeError: r\nError: in then\ncaught x\nc\ny\nall z\nrc=0\n');
  }, 60_000);

  it('an uncaught error in a script file names the file and its line; a timer callback throwing is uncaught too', async () => {
    const r = await runShell(`printf 'const a = 1;\\nfunction f() {\\n  null.x;\\n}\\nf();\\n' > /tmp/f.js; node /tmp/f.js; echo "rc=$?"; node -e 'setTimeout(() => { throw new Error("later") }, 5)' 2>&1 | head -6`);
    expect(r.stderr).toBe("/tmp/f.js:3\n  null.x;\n       ^\n\nTypeError: Cannot read properties of null (reading 'x')\n    at f (/tmp/f.js:3:8)\n    at Object.<anonymous> (/tmp/f.js:5:1)\n\nNode.js v22.0.0\n");
    expect(r.stdout).toBe('rc=1\n[eval]:1\nsetTimeout(() => { throw new Error("later") }, 5)\n                   ^\n\nError: later\n    at Timeout._onTimeout ([eval]:1:26)\n');
  }, 60_000);
});

describe('node -p', () => {
  it("prints the script's completion value once it has run (before timers); an error's report shows the code as written", async () => {
    const r = await runShell(`node -p 'if (true) 5'; node -p 'setTimeout(() => console.log("t"), 10); var x = 2; x * 3'; node -p 'var y = 1'; node -p 'null.x'`);
    expect(r).toEqual({ stdout: '5\n6\nt\nundefined\n', stderr: "[eval]:1\nnull.x\n     ^\n\nTypeError: Cannot read properties of null (reading 'x')\n    at [eval]:1:6\n\nNode.js v22.0.0\n", exit: 1 });
  }, 60_000);
});

describe("node's assert", () => {
  it("throws node's AssertionError with node's own messages; strict forms; throws/rejects/match; refuses what it cannot carry", async () => {
    const r = await runShell(`node -e 'const assert = require("node:assert"); for (const f of [() => assert.strictEqual(1, 2), () => assert.equal(1, 2), () => assert.ok(0), () => assert.deepStrictEqual({a: 1}, {a: 2}), () => assert.strict.equal(1, "1"), () => assert.throws(() => {}), () => assert.match("abc", /x/)]) { try { f(); console.log("passed") } catch (e) { console.log(e.name, e.code, e.operator, JSON.stringify(e.message)) } } assert.ok(1); assert.equal(1, "1"); assert.deepEqual({a: 1}, {a: "1"}); assert.throws(() => { throw new TypeError("t") }, TypeError); assert.rejects(Promise.reject(new Error("r")), /r/).then(() => console.log("rejects ok"))'; node -e 'require("assert").deepStrictEqual(() => 1, () => 1)'; echo "rc=$?"`);
    expect(r.stdout).toBe([
      'AssertionError ERR_ASSERTION strictEqual "Expected values to be strictly equal:\\n\\n1 !== 2\\n"',
      'AssertionError ERR_ASSERTION == "1 == 2"',
      'AssertionError ERR_ASSERTION == "0 == true"',
      'AssertionError ERR_ASSERTION deepStrictEqual "Expected values to be strictly deep-equal:\\n+ actual - expected\\n\\n  {\\n+   a: 1\\n-   a: 2\\n  }"',
      'AssertionError ERR_ASSERTION strictEqual "Expected values to be strictly equal:\\n\\n1 !== \'1\'\\n"',
      'AssertionError ERR_ASSERTION throws "Missing expected exception."',
      'AssertionError ERR_ASSERTION match "The input did not match the regular expression /x/. Input:\\n\\n\'abc\'\\n"',
      'rejects ok',
      'rc=2',
      '',
    ].join('\n'));
    expect(r.stderr).toBe('node: assert.deepStrictEqual of functions, symbols or class instances is not available in the shell engine; run spritzer with --exec sandbox\n');
  }, 60_000);
});

describe('an exit the code catches', () => {
  it('ends the program: nothing after a caught process.exit or refusal runs, no file is written, later node runs still run', async () => {
    const r = await runShell(`node -e 'try { process.exit(3) } catch (e) {} require("fs").writeFileSync("w", "x"); console.log("after"); while (true) {}'; echo "rc=$?"; node -e 'const fs = require("fs"); try { fs.chownSync("f", 0, 0) } catch (e) {} fs.existsSync("g"); console.log("end")'; echo "rc=$?"; ls w; node -e 'console.log("next")'`);
    expect(r).toEqual({ stdout: 'rc=3\nrc=2\nnext\n', stderr: "node: fs.chownSync is not available in the shell engine; run spritzer with --exec sandbox\nls: cannot access 'w': No such file or directory\n", exit: 0 });
  }, 60_000);
});
