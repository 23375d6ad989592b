// `${name[` with neither `]` nor `}` after it (`echo ${x[bad`) leaves the `${` open to the end of the input: bash's
// parser stops there, `unexpected EOF while looking for matching }`, and runs nothing of that command line (exit 2).
// just-bash read the subscript up to a `]` it did not find and made a `bad substitution` at run time of it.
export default {
  title: 'an unclosed subscript in ${…} with no } after it is a parse error',
  upstream: 'src/parser/expansion-parser.ts parseParameterExpansion (a subscript with no closing ] and no } after it: throw the unexpected EOF error, as for ${x)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(t[s]==="["){let u=di(e,t,s,"[","]");if(a+=',
      replace: 'if(t[s]==="["){let u=di(e,t,s,"[","]");if(u<0&&t.indexOf("}",s)<0)throw new xe("unexpected EOF while looking for matching \'}\'",0,0);if(a+=',
    },
  ],
};
