// node's console.log prints an object or array with util.inspect (`{ a: 1, b: [ 1, 2 ] }`, depth 2, 72-column
// groups of numbers, `... n more items`, `<ref *1>`…), a layout js-exec's console (JSON.stringify) does not give. The
// QuickJS context gets `__spzNodeText(json)`: spritzer's node prelude describes the values the code produced as
// tagged JSON (plain objects, arrays with their holes, Map, Set, Date, RegExp, Buffer, functions and classes by name,
// class instances by their class's name, -0, NaN, bigint, undefined, shared and circular references), and the worker
// rebuilds them and answers with Node's own util.formatWithOptions / util.inspect / console.table text: exactly node's output.
// `fn: "assert"` runs node's own assert function `op` on them and answers its message ("" when it passes), for the
// prelude's node:assert.
export default {
  title: "js-exec: Node's util.format/util.inspect text of plain data the code produced (for node's console.log)",
  upstream: 'src/commands/js-exec/js-exec-worker.ts setupContext: console.log/error of non-strings through util.inspect of the dumped value (instead of JSON.stringify)',
  file: 'dist/bundle/chunks/js-exec-worker.js',
  edits: [
    {
      find: 'import { parentPort } from "node:worker_threads";',
      replace: 'import { parentPort } from "node:worker_threads";\nimport { formatWithOptions as spzFormatWithOptions, inspect as spzInspect } from "node:util";\nimport { Console as SpzConsole } from "node:console";\nimport { Writable as SpzWritable } from "node:stream";\nimport * as spzAssert from "node:assert";',
    },
    {
      find: 'function setupContext(context, backend, input, processExitMarker) {',
      replace: `// The values a tagged description (spritzer's node prelude) stands for: { $: kind, id, p: own enumerable [key, value]
// pairs, ... }; an object met again is { $: "ref", id }.
function spzRebuild(root) {
  const made = new Map();
  const named = (name, make) => Object.defineProperty(make(), "name", { value: name });
  const fill = (obj, props) => { for (const [k, v] of props ?? []) obj[k] = rebuild(v); return obj; };
  const keep = (d, obj) => (made.set(d.id, obj), fill(obj, d.p));
  const FUNCTIONS = { f: () => function () {}, cls: () => class {} };
  const rebuild = (d) => {
    if (d === null || typeof d !== "object") return d;
    switch (d.$) {
      case "u": return undefined;
      case "n": return Number(d.v);
      case "b": return BigInt(d.v);
      case "y": return Symbol(d.v);
      case "ref": return made.get(d.id);
      case "d": return keep(d, new Date(d.v));
      case "r": return keep(d, new RegExp(d.s, d.f));
      case "buf": return keep(d, Buffer.from(d.v, "hex"));
      case "f": return keep(d, named(d.name, FUNCTIONS[d.k]));
      case "a": {
        const arr = new Array(d.n);
        made.set(d.id, arr);
        d.i.forEach((x, k) => { if (!(x && x.$ === "h")) arr[k] = rebuild(x); });
        return fill(arr, d.p);
      }
      case "m": { const m = new Map(); made.set(d.id, m); for (const [k, v] of d.e) m.set(rebuild(k), rebuild(v)); return fill(m, d.p); }
      case "s": { const s = new Set(); made.set(d.id, s); for (const v of d.e) s.add(rebuild(v)); return fill(s, d.p); }
      case "o": return keep(d, d.np ? Object.create(null) : d.c !== undefined ? Object.create(named(d.c, FUNCTIONS.cls).prototype) : {});
      default: throw new Error("unknown value description " + d.$);
    }
  };
  return rebuild(root);
}
// Node's text for { fn: "format" | "inspect" | "table", v: [opts, ...args] described }: util.formatWithOptions(opts,
// ...args) as console.log writes it, util.inspect(args[0], opts) as console.dir and util.inspect do, or what a
// console's table(args[0], args[1]) writes (its lines, newline included).
function spzNodeText(json) {
  const { fn, v } = JSON.parse(json);
  const [opts, ...args] = spzRebuild(v);
  if (fn === "assert") {
    // node's assert on the same values: "" when it passes, else its AssertionError's message (node's own words).
    try { spzAssert[opts.op](...args); return ""; } catch (e) { return String(e && e.message); }
  }
  if (fn === "table") {
    let out = "";
    const sink = new SpzWritable({ write(chunk, _enc, done) { out += chunk; done(); } });
    new SpzConsole({ stdout: sink, stderr: sink, colorMode: false }).table(...args);
    return out;
  }
  return fn === "inspect" ? spzInspect(args[0], opts) : spzFormatWithOptions(opts ?? {}, ...args);
}
function setupContext(context, backend, input, processExitMarker) {`,
    },
    {
      find: '  consoleObj.dispose();\n  const fsObj = context.newObject();',
      replace: '  consoleObj.dispose();\n  const spzTextFn = context.newFunction("__spzNodeText", (jsonHandle) => { try { return context.newString(spzNodeText(context.getString(jsonHandle))); } catch (e) { return throwError(context, e.message || "format failed"); } });\n  context.setProp(context.global, "__spzNodeText", spzTextFn);\n  spzTextFn.dispose();\n  const fsObj = context.newObject();',
    },
  ],
};
