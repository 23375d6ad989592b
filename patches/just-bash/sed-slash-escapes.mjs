// How GNU sed reads the backslashes of an `s` command and of a regex address (compile.c match_slash,
// snarf_char_class, normalize_text, setup_replacement; sed manual, "The s Command", "Regexp Addresses",
// "Character Classes and Bracket Expressions", "Escapes"):
// - in the replacement `\\` is one literal backslash, so `s/\./\\&/` gives `\.` (a backslash, then the match) and
//   `\\n`, `\\1`, `\\U` are a backslash then `n`, `1`, `U`; just-bash unescaped the pair while reading the script
//   and again while substituting (`a&b`, a newline, a back-reference, upper case). `\<delimiter>` is the delimiter
//   as a plain character (`\&` stays the literal `&` when `&` is the delimiter).
// - a regex address may take any delimiter as `\cREGEXc` (`\|/etc|p`, `\,x,d`, `\#a#I`), in which `\c` is the
//   character c as a plain one; just-bash knew only `/re/` ("invalid command: \").
// - inside a bracket expression a backslash is an ordinary member (`[\/]` is backslash or slash, `[\.]` backslash or
//   dot, `[\]]` a backslash class then `]`), except for GNU's escapes `\n \t \r \f \v \a \\ \dNNN \oNNN \xHH \cX`;
//   just-bash gave the pair to the regex engine, which read `\/` and `\.` as the plain character alone. A `]` first
//   in the list is a member under -E too.
const classEscapes = String.raw`function sedClassEscapes(p){let o="";for(let i=0;i<p.length;i++){let c=p[i];if(c==="\\"){o+=c+(p[i+1]??"");i++;continue}if(c!=="["){o+=c;continue}let j=i+1,b="[",shut=!1;p[j]==="^"&&(b+="^",j++);p[j]==="]"&&(b+="\\]",j++);for(;j<p.length;j++){let d=p[j];if(d==="]"){shut=!0;break}if(d==="["&&/[:.=]/.test(p[j+1]??"")){let e=p.indexOf(p[j+1]+"]",j+2);if(e>0){b+=p.slice(j,e+2),j=e+1;continue}}if(d!=="\\"){b+=d;continue}let n=p[j+1]??"",hex=v=>"\\x"+(v&255).toString(16).padStart(2,"0");if("ntrfv".includes(n)&&n){b+="\\"+n,j++;continue}if(n==="a"){b+="\\x07",j++;continue}if(n==="\\"){b+="\\\\",j++;continue}if(n==="c"&&j+2<p.length){b+=hex(p[j+2].toUpperCase().charCodeAt(0)^64),j+=2;continue}let m=n==="x"?/^[0-9A-Fa-f]{1,2}/.exec(p.slice(j+2)):n==="d"?/^[0-9]{1,3}/.exec(p.slice(j+2)):n==="o"?/^[0-7]{1,3}/.exec(p.slice(j+2)):null;if(m){b+=hex(parseInt(m[0],n==="x"?16:n==="d"?10:8)),j+=1+m[0].length;continue}if("xdo".includes(n)&&n){b+=n,j++;continue}b+="\\\\"}if(!shut){o+=p.slice(i);break}o+=b+"]",i=j}return o}`;

export default {
  title: 'sed: `\\\\` in a replacement is one backslash, `\\cREc` addresses, backslashes in bracket expressions',
  upstream: 'src/commands/sed/lexer.ts (readSubstitute: keep `\\\\` escaped and `\\<delim>` plain; readPattern: any delimiter, a plain backslash inside brackets; nextToken: `\\` starts an address) and executor.ts (bracket expressions\' backslashes before the regex conversion)',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    {
      // the lexer: `\c` at a command's start opens an address delimited by c
      find: 'n==="/"?this.readPattern():n===":"?this.readLabelDef()',
      replace: 'n==="/"?this.readPattern():n==="\\\\"&&this.pos+1<this.input.length&&this.input[this.pos+1]!==`\n`?(this.advance(),this.readPattern(this.peek())):n===":"?this.readLabelDef()',
    },
    {
      // the address regex: its delimiter, `\<delim>` plain, a backslash inside brackets an ordinary character
      find: 'readPattern(){let e=this.line,t=this.column;this.advance();let n="",s=!1;for(;this.pos<this.input.length;){let a=this.peek();if(a==="/"&&!s)break;if(a==="\\\\")n+=this.advance(),this.pos<this.input.length&&this.peek()!==`\n`&&(n+=this.advance());else{',
      replace: 'readPattern(q="/"){let e=this.line,t=this.column;this.advance();let n="",s=!1;for(;this.pos<this.input.length;){let a=this.peek();if(a===q&&!s)break;if(a==="\\\\"&&s)n+=this.advance();else if(a==="\\\\")this.advance(),this.peek()===q?n+=this.advance():(n+="\\\\",this.pos<this.input.length&&this.peek()!==`\n`&&(n+=this.advance()));else{',
    },
    {
      find: 'this.peek()==="/"&&this.advance();let F="";',
      replace: 'this.peek()===q&&this.advance();let F="";',
    },
    {
      // the `s` regex: a backslash inside brackets is an ordinary character
      find: 'if(o==="\\\\")this.advance(),this.pos<this.input.length&&this.peek()!==`\n`?this.peek()===n&&!a?s+=this.advance()',
      replace: 'if(o==="\\\\"&&a)s+=this.advance();else if(o==="\\\\")this.advance(),this.pos<this.input.length&&this.peek()!==`\n`?this.peek()===n&&!a?s+=this.advance()',
    },
    {
      // the replacement: `\\` stays escaped (the substitution makes it one backslash), `\<delim>` is the delimiter
      find: 'o==="\\\\"?(this.advance(),this.pos<this.input.length&&this.peek()===`\n`?(r+=`\n`,this.advance()):r+="\\\\"):o===`\n`?(r+=`\n`,this.advance()):r+=`\\\\${this.advance()}`',
      replace: 'o==="\\\\"?(this.advance(),r+="\\\\\\\\"):o===`\n`?(r+=`\n`,this.advance()):o===n&&n!=="&"?r+=this.advance():r+=`\\\\${this.advance()}`',
    },
    {
      find: 'let r=X(i.extendedRegex?a:V(a)),F=i.addressFlags||"";',
      replace: 'let r=X(i.extendedRegex?sedClassEscapes(a):V(sedClassEscapes(a))),F=i.addressFlags||"";',
    },
    {
      find: 'let h=X(r.extendedRegex?o:V(o));',
      replace: `let h=X(r.extendedRegex?sedClassEscapes(o):V(sedClassEscapes(o)));`,
    },
    {
      find: 'function X(i){',
      replace: `${classEscapes}function X(i){`,
    },
  ],
};
