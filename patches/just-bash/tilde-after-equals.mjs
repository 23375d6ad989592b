// A `~` after `=` is expanded only in a word that is (or looks like) an assignment, `name=~/x`: in `--opt=~/d` it
// stays `~`. Bash's manual, "Tilde Expansion" ("Each variable assignment is checked for unquoted tilde-prefixes
// immediately following a : or the first ="; in other words bash does the same only for words of that form). just-bash
// expanded a tilde after any `=`.
export default {
  title: 'a ~ after = is expanded only in a name=… word',
  upstream: 'src/parser/word-parser.ts parseWordParts (tilde): after "=", only when the text before it is NAME= or NAME+=',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(m==="~"){let w=d>0?t[d-1]:"";if(d===0&&u||w==="="||s&&w===":"){',
      replace: 'if(m==="~"){let w=d>0?t[d-1]:"";if(d===0&&u||w==="="&&/^[a-zA-Z_][a-zA-Z0-9_]*(\\[[^\\]]*\\])?\\+?=$/.test(t.slice(0,d))||s&&w===":"){',
    },
  ],
};
