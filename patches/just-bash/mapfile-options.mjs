// mapfile/readarray take their options as bash's mapfile.def does (getopt "d:n:O:s:tu:C:c:", joined or attached
// arguments, `--`) and refuse what bash refuses, named as called (`readarray: …`): an unknown option or one missing
// its argument, with the usage line, status 2; `-n`/`-s` not a count (`x: invalid line count`), `-O` not an origin
// (`x: invalid array origin`), `-c` not a positive count (`0: invalid callback quantum`), `-u` not a descriptor
// (`x: invalid file descriptor specification`) or one not open for reading (`9: invalid file descriptor: Bad file
// descriptor`), a bad name (`` `1a': not a valid identifier ``), an associative array (`m: not an indexed array`),
// status 1. `-u FD` reads from descriptor FD, consuming only the lines it stores; `-C CALLBACK -c QUANTUM`: every
// QUANTUM lines (5000 by default) bash evaluates `CALLBACK INDEX LINE` (the index of the element about to be assigned,
// and its value as it will be stored, quoted) before assigning it, its output being mapfile's. Bash's manual, "Bash
// Builtin Commands" (mapfile). just-bash took only options standing alone, skipped -u/-C/-c, read 0 for a bad number
// and filled an associative array.
const USAGE = '${_W}: usage: ${_W} [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]\\n';
export default {
  title: 'mapfile/readarray: bash\'s option parsing and errors, -u FD, -C/-c callbacks, no associative array',
  upstream: 'src/interpreter/builtins/mapfile.ts handleMapfile: getopt-style parsing with the invoked name and bash\'s errors (usage 2; invalid line count, array origin, callback quantum, file descriptor, not an indexed array 1); read -u FD consuming the lines stored; evaluate "CALLBACK INDEX LINE" every QUANTUM lines before the element is assigned',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function jo(e,t,n){let r=`\n`,s=0,i=0,o=0,a=!1,l="MAPFILE",c=0;for(;c<t.length;){',
      replace: 'async function jo(e,t,n){let cb,q="5000",fd,r=`\n`,s=0,i=0,o=0,a=!1,l="MAPFILE",c=0,_W=e.state.__jbBuiltin==="readarray"?"readarray":"mapfile",_E=m=>L("",`bash: ${_W}: ${m}\\n`,1),_N=/^\\s*[-+]?\\d+\\s*$/;' +
        'for(;c<t.length;c++){let g=t[c];if(g==="--"){c++;break}if(!g.startsWith("-")||g==="-")break;for(let F=1;F<g.length;F++){let oe=g[F];if(oe==="t"){a=!0;continue}' +
        `if(!"dnOsuCc".includes(oe))return L("",\`bash: \${_W}: -\${oe}: invalid option\\n${USAGE}\`,2);` +
        `let ae=g.slice(F+1);if(ae===""){if(c+1>=t.length)return L("",\`bash: \${_W}: -\${oe}: option requires an argument\\n${USAGE}\`,2);ae=t[++c]}` +
        'let v=Number.parseInt(ae,10),ok=_N.test(ae)&&v>=0;if(oe==="d")r=ae===""?"\\0":ae[0];else if(oe==="n"||oe==="s"){if(!ok)return _E(`${ae}: invalid line count`);oe==="n"?s=v:o=v}else if(oe==="O"){if(!ok)return _E(`${ae}: invalid array origin`);i=v}' +
        'else if(oe==="C")cb=ae;else if(oe==="c"){if(!ok||v===0)return _E(`${ae}: invalid callback quantum`);q=ae}else if(oe==="u"){if(!ok)return _E(`${ae}: invalid file descriptor specification`);fd=String(v)}break}}' +
        'c<t.length&&(l=t[c]);if(!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(l))return _E(`\\`${l}\': not a valid identifier`);if(e.state.associativeArrays?.has(l))return _E(`${l}: not an indexed array`);' +
        // The original option loop that follows is skipped: the options were read above.
        'c=t.length;for(;c<t.length;){',
    },
    {
      find: 'fe(e,l,"mapfile");let u=n;!u&&e.state.groupStdin!==void 0&&(u=e.state.groupStdin);',
      replace:
        'fe(e,l,"mapfile");let u=n;!u&&e.state.groupStdin!==void 0&&(u=e.state.groupStdin);let fdn=fd===void 0?0:Number(fd),fdIn=fdn>0&&!(tt(e,fdn)?.kind==="dup-in"&&tt(e,fdn).sourceFd===0);' +
        'if(fdIn){let C=Cs(e,fdn);if("error"in C)return _E(`${fd}: invalid file descriptor: Bad file descriptor`);u=C.content}',
    },
    {
      find: 'i===0&&Ee(e,l);for(let g=0;g<f.length;g++)Z(e,l,i+g,f[g]);return e.state.groupStdin!==void 0&&!n&&(e.state.groupStdin=""),{...L("","",0),',
      replace:
        'let O="",E="";' +
        'i===0&&Ee(e,l);for(let g=0;g<f.length;g++){if(cb!==void 0&&(g+1)%+q===0){let R=await e.executeScript(Ge(`${cb} ${i+g} \'${f[g].replace(/\'/g,"\'\\\\\'\'")}\'`));O+=R.stdout;E+=R.stderr}Z(e,l,i+g,f[g])}' +
        'if(fdIn){let pos=0;for(let k=0;k<o+f.length&&pos<u.length;k++){let j=u.indexOf(r,pos);pos=j<0?u.length:j+r.length}return tn(e,fdn,pos),L(O,E,0)}return e.state.groupStdin!==void 0&&!n&&(e.state.groupStdin=""),{...L(O,E,0),',
    },
  ],
};
