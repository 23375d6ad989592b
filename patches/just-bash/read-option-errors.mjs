// read parses its options as bash's read.def does (getopt "ersa:d:i:n:p:t:u:N:", options joined or their
// argument attached, `--` ending them, the first non-option word starting the names) and refuses what bash refuses:
// an unknown option (`read: -Q: invalid option`) or one missing its argument (`read: -d: option requires an
// argument`), each with the usage line, status 2; `-n`/`-N` not a count (`read: x: invalid number`), `-t` not a
// timeout (`read: abc: invalid timeout specification`), `-u` not a descriptor number (`read: x: invalid file
// descriptor specification`), `-a` naming an associative array (`read: m: not an indexed array`), status 1.
// Bash's manual, "Bash Builtins" (read). just-bash failed most of these silently with status 1 or 0.
export default {
  title: 'read: bash\'s option parsing and its option errors',
  upstream: 'src/interpreter/builtins/read.ts parseReadArgs: getopt-style parsing; invalid option / missing argument with the usage (2); invalid number, timeout specification, file descriptor specification; -a on an associative array (1)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'for(;p<t.length;){let _=t[p];if(_.startsWith("-")&&_.length>1&&_!=="--"){let T=m(_,p);if(T.nextArgIndex===-1)return{stdout:"",stderr:"",exitCode:2};if(T.nextArgIndex===-2)return{stdout:"",stderr:"",exitCode:1};p=T.nextArgIndex}else if(_==="--")for(p++;p<t.length;)d.push(t[p]),p++;else d.push(_),p++}if(h)return L("","",1);',
      replace: 'let _U="read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\\n",_N=/^\\s*[-+]?\\d+\\s*$/;' +
        'for(;p<t.length;p++){let _=t[p];if(_==="--"){p++;break}if(!_.startsWith("-")||_==="-")break;for(let F=1;F<_.length;F++){let oe=_[F];if("ers".includes(oe)){oe==="r"&&(s=!0);continue}' +
        'if(!"adinptuN".includes(oe))return L("",`bash: read: -${oe}: invalid option\\n${_U}`,2);let ae=_.slice(F+1);if(ae===""){if(p+1>=t.length)return L("",`bash: read: -${oe}: option requires an argument\\n${_U}`,2);ae=t[++p]}' +
        'if(oe==="d")i=ae;else if(oe==="a")c=ae;else if(oe==="p")o=ae;else if(oe==="n"||oe==="N"){let v=Number.parseInt(ae,10);if(!_N.test(ae)||v<0)return L("",`bash: read: ${ae}: invalid number\\n`,1);oe==="n"?a=v:l=v}' +
        'else if(oe==="t"){if(!/^\\s*(\\d+\\.?\\d*|\\.\\d+)\\s*$/.test(ae))return L("",`bash: read: ${ae}: invalid timeout specification\\n`,1);f=Number.parseFloat(ae)}' +
        'else if(oe==="u"){let v=Number.parseInt(ae,10);if(!_N.test(ae)||v<0)return L("",`bash: read: ${ae}: invalid file descriptor specification\\n`,1);u=v}break}}' +
        'for(;p<t.length;p++)d.push(t[p]);if(c!==null&&e.state.associativeArrays?.has(c))return L("",`bash: read: ${c}: not an indexed array\\n`,1);',
    },
  ],
};
