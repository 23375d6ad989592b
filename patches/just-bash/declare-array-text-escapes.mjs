// `declare -a a=("x\"y" "\$z" "a\\b")` keeps each element as bash does (bash's manual, "Double Quotes": within
// double quotes `\` keeps its meaning before `$`, `` ` ``, `"` and `\`). just-bash rebuilds the text of a compound
// assignment given to declare/local/readonly and parses it again; it wrote a double-quoted part's characters back
// bare, so `"x\"y"` came back as `"x"y"` (a parse error, or a different value) and `"\$z"` expanded `$z`. Here
// those four characters are escaped again in the rebuilt text.
export default {
  title: 'declare a=("x\\"y" "\\$z"): double-quoted elements keep their escaped characters',
  upstream: 'src/parser/command-parser.ts serializeArrayElementWord: inside a DoubleQuoted part, escape \\ " $ ` in Literal values',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'case"DoubleQuoted":n+=\'"\';for(let s of r.parts)s.type==="Literal"||s.type==="Escaped"?n+=s.value:(n+=Zr(s,!0));n+=\'"\';break;case"ParameterExpansion":n+=Zr(r,!1);break;case"Glob":n+=r.pattern;break;case"TildeExpansion"',
      replace: 'case"DoubleQuoted":n+=\'"\';for(let s of r.parts)s.type==="Literal"||s.type==="Escaped"?n+=s.value.replace(/[\\\\"$`]/g,"\\\\$&"):(n+=Zr(s,!0));n+=\'"\';break;case"ParameterExpansion":n+=Zr(r,!1);break;case"Glob":n+=r.pattern;break;case"TildeExpansion"',
    },
    {
      // The rebuilt text's elements: a backslash quotes the next character outside quotes, only `$ ` " \` and a
      // newline inside double quotes, and nothing inside single quotes (`"a\b"` and `'a\b'` keep theirs).
      find: "let n=[],r=\"\",s=!1,i=!1,o=!1,a=!1;for(let l of e){if(o){r+=l,o=!1,a=!0;continue}if(l===\"\\\\\"){o=!0;continue}",
      replace: "let n=[],r=\"\",s=!1,i=!1,o=!1,a=!1;for(let __k=0;__k<e.length;__k++){let l=e[__k];if(o){r+=l,o=!1,a=!0;continue}if(l===\"\\\\\"&&!s&&(!i||\"$`\\\"\\\\\\n\".includes(e[__k+1]??\"\\0\"))){o=!0;continue}",
    },
    {
      // A character escaped outside quotes stays escaped (`\*` is a `*`, not a pattern).
      find: "case\"Escaped\":n+=r.value;break;case\"DoubleQuoted\":n+=",
      replace: "case\"Escaped\":n+=\"\\\\\"+r.value;break;case\"DoubleQuoted\":n+=",
    },
  ],
};
