// js-exec's QuickJS worker imported `stripTypeScriptTypes` from node:module by name, an export that exists from
// Node 22.6 on: on Node 20 the worker failed to load, so no JavaScript ran at all (`node -e 'console.log(1)'` could
// only be refused), although only TypeScript sources need the stripper. Here the worker looks the function up when a
// TypeScript source asks for it, and says why when this Node has none; plain JavaScript runs on every Node.
export default {
  title: 'js-exec runs JavaScript on Node before 22.6 (only TypeScript needs module.stripTypeScriptTypes)',
  upstream: 'src/commands/js-exec/js-exec-worker.ts: import * as nodeModule from "node:module" and call nodeModule.stripTypeScriptTypes only for .ts/.mts sources and --strip-types, with an error naming Node 22.6 when it is missing',
  file: 'dist/bundle/chunks/js-exec-worker.js',
  edits: [
    {
      find: 'import { stripTypeScriptTypes } from "node:module";',
      replace: 'import * as _jbNodeModule from "node:module";\nvar stripTypeScriptTypes = (source) => { if (typeof _jbNodeModule.stripTypeScriptTypes !== "function") throw new Error("TypeScript sources need Node.js 22.6 or later (module.stripTypeScriptTypes)"); return _jbNodeModule.stripTypeScriptTypes(source); };',
    },
    {
      // The warm-up call at start-up would now throw on Node 20; it is already inside a try.
      find: '    stripTypeScriptTypes("const x = 1;");\n',
      replace: '    if (typeof _jbNodeModule.stripTypeScriptTypes === "function") stripTypeScriptTypes("const x = 1;");\n',
    },
  ],
};
