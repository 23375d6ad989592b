// A back-reference in a sed regex (`s/\(o\)\1/0/`, `sed -E '/(ab)\1/d'`) matches the text its group matched (GNU sed
// manual, "Back-references and Subexpressions"). just-bash compiles sed regexes with RE2, which has no
// back-references: such a pattern failed to compile and its command silently matched nothing. A pattern with
// `\1`…`\9` is compiled as a JavaScript RegExp (backtracking, leftmost-first like RE2); every other one still uses RE2.
export default {
  title: 'sed regexes with back-references (\\1-\\9) match',
  upstream: 'src/commands/sed/executor.ts (every createUserRegex call): compile a pattern holding a back-reference with the native RegExp wrapper instead of RE2',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    {
      find: 'import{a as A}from"./chunk-KVG5FR5F.js";',
      replace: 'import{a as sedRe2Regex,b as SedNativeRegex}from"./chunk-KVG5FR5F.js";function A(p,f){return/(?:^|[^\\\\])(?:\\\\\\\\)*\\\\[1-9]/.test(p)?new SedNativeRegex(new RegExp(p,f)):sedRe2Regex(p,f)}',
    },
  ],
};
