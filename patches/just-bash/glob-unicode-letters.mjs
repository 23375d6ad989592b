// In the sprite's C.UTF-8 locale a bracket expression's `[:alpha:]`, `[:upper:]`, `[:lower:]`, `[:alnum:]` and
// `[:word:]` hold every Unicode letter (bash manual, "Pattern Matching": classes as the locale's LC_CTYPE defines
// them): `echo [[:alpha:]].txt` lists `é.txt`, `case école in [[:alpha:]]*)` matches, `${v//[[:upper:]]/U}`
// replaces `É`, `[[ Ö =~ ^[[:upper:]]$ ]]` is true. just-bash's three class tables (pathname and case patterns,
// parameter patterns, `=~`) gave ASCII ranges, and the `case`/`[[ == ]]` matcher handed its bracket expressions to RE2
// as they were (RE2's own classes are ASCII); all of them feed RE2, which knows Unicode property classes.
const tail = (xdigit) => `["ascii","\\\\x00-\\\\x7F"],["blank"," \\\\t"],["cntrl","\\\\x00-\\\\x1F\\\\x7F"],["digit","0-9"],["graph","!-~"],["lower","LOWER"],["print"," -~"],["punct","!-/:-@\\\\[-\`{-~"],["space"," \\\\t\\\\n\\\\r\\\\f\\\\v"],["upper","UPPER"],["word","WORD"],["xdigit","${xdigit}"]])`;
const ascii = (xdigit) => `[["alnum","a-zA-Z0-9"],["alpha","a-zA-Z"],${tail(xdigit).replace('LOWER', 'a-z').replace('UPPER', 'A-Z').replace('WORD', 'a-zA-Z0-9_')}`;
const unicode = (xdigit) => `[["alnum","\\\\p{L}\\\\p{Nd}"],["alpha","\\\\p{L}"],${tail(xdigit).replace('LOWER', '\\\\p{Ll}').replace('UPPER', '\\\\p{Lu}').replace('WORD', '\\\\p{L}\\\\p{N}_')}`;
const table = (head, xdigit) => ({ find: `${head}${ascii(xdigit)}`, replace: `${head}${unicode(xdigit)}` });

export default {
  title: 'pattern classes [:alpha:] [:upper:] [:lower:] [:alnum:] [:word:] cover Unicode letters (C.UTF-8)',
  upstream: 'src/interpreter (the POSIX class tables of glob-to-regex, pattern expansion and the =~ converter): \\p{L}, \\p{Lu}, \\p{Ll}, \\p{L}\\p{Nd} in place of the ASCII ranges',
  file: 'dist/bundle/index.js',
  edits: [
    table('var up=new Map(', '0-9a-fA-F'),
    table('var Ap=new Map(', '0-9A-Fa-f'),
    table('function ph(e){return new Map(', '0-9A-Fa-f'),
    {
      find: 'i!==-1?(n+=e.slice(r,i+1),r=i):n+="\\\\["}',
      replace: 'i!==-1?(n+=e.slice(r,i+1).replace(/\\[:(alpha|upper|lower|alnum|word):\\]/g,(m,k)=>up.get(k)),r=i):n+="\\\\["}',
    },
  ],
};
