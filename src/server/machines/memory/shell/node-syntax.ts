/**
 * How node would compile a `node -e`/`-p` string or a `node FILE` script, asked of the host's own V8 (the same parser
 * node uses): a script (js-exec then runs it as a script, `--script`), code only an ES module may hold (`import`,
 * `export`, a top-level `await`: node 20.19+ runs it as a module, and so does js-exec), or a syntax error, reported as
 * node reports it — `[eval]:LINE` (or the script's path), the source line, V8's carets, a blank line,
 * `SyntaxError: <V8's message>` — then `Node.js VERSION`, status 1. QuickJS's own parser words its errors otherwise
 * (`unexpected token in expression: ';'`) and counted lines of the wrapped program.
 * @deviation node's own stack frames below the message (`at makeContextifyScript (node:internal/vm:…)`) are not printed.
 * @see https://nodejs.org/api/vm.html#new-vmscriptcode-options, https://nodejs.org/api/vm.html#vmcompilefunctioncode-params-options,
 * https://nodejs.org/api/packages.html#syntax-detection
 */
import * as vm from 'node:vm';

/** The version js-exec's node answers (`process.version`, `node -v`), which node's reports end with. */
export const NODE_VERSION = 'v22.0.0';

/** What {@link compileNode} found. */
export type NodeCompile = { kind: 'script' } | { kind: 'module' } | { kind: 'error'; report: string };

/** V8's messages for code that is valid only as an ES module. */
const MODULE_ONLY = [
  'Cannot use import statement outside a module',
  "Unexpected token 'export'",
  'await is only valid in async functions and the top level bodies of modules',
  "Cannot use 'import.meta' outside a module",
];

/**
 * Compiles `code` as node would: the `-e` string as a script named `[eval]`, or the script at `file` (absolute) in
 * node's CommonJS wrapper (where a top-level `return` is allowed). Nothing runs.
 */
export function compileNode(code: string, file?: string): NodeCompile {
  try {
    if (file === undefined) new vm.Script(code, { filename: '[eval]' });
    else vm.compileFunction(code, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
    return { kind: 'script' };
  } catch (e) {
    if (!(e instanceof SyntaxError)) return { kind: 'script' };
    if (MODULE_ONLY.includes(e.message)) return { kind: 'module' };
    const stack = String(e.stack);
    const end = stack.indexOf('\n    at ');
    return { kind: 'error', report: `${end < 0 ? stack : stack.slice(0, end)}\n\nNode.js ${NODE_VERSION}\n` };
  }
}
