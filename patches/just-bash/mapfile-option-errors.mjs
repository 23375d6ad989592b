// mapfile/readarray parse their options as bash's mapfile.def does (getopt "d:n:O:s:tu:C:c:", joined or attached
// arguments, `--`) and refuse what bash refuses, named as called (`readarray: …`): an unknown option or one missing
// its argument, with the usage line, status 2; `-n`/`-s` not a count (`x: invalid line count`), `-O` not an origin
// (`x: invalid array origin`), `-c` not a positive count (`0: invalid callback quantum`), `-u` not a descriptor
// (`x: invalid file descriptor specification`) or one not open for reading (`9: invalid file descriptor: Bad file
// descriptor`), a bad name (`` `1a': not a valid identifier ``), an associative array (`m: not an indexed array`),
// status 1; `-u N` reads descriptor N. Bash's manual, "Bash Builtins" (mapfile). just-bash took only options
// standing alone, read 0 for a bad number, ignored -u, and filled an associative array.
export default {
  title: 'mapfile/readarray: bash\'s option parsing and errors, -u, no associative array',
  upstream: 'src/interpreter/builtins/mapfile.ts handleMapfile: getopt-style parsing with the invoked name; invalid option / missing argument with the usage (2); invalid line count, array origin, callback quantum, file descriptor; not an indexed array (1); read the -u descriptor',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function jo(e,t,n){let r=`\n`,s=0,i=0,o=0,a=!1,l="MAPFILE",c=0;for(;c<t.length;){',
      replace: 'function jo(e,t,n){let r=`\n`,s=0,i=0,o=0,a=!1,l="MAPFILE",c=0,_W=e.state.__jbBuiltin==="readarray"?"readarray":"mapfile",_E=m=>L("",`bash: ${_W}: ${m}\\n`,1),_N=/^\\s*[-+]?\\d+\\s*$/,_u=0;' +
        'for(;c<t.length;c++){let g=t[c];if(g==="--"){c++;break}if(!g.startsWith("-")||g==="-")break;for(let F=1;F<g.length;F++){let oe=g[F];if(oe==="t"){a=!0;continue}' +
        'if(!"dnOsuCc".includes(oe))return L("",`bash: ${_W}: -${oe}: invalid option\\n${_W}: usage: ${_W} [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]\\n`,2);' +
        'let ae=g.slice(F+1);if(ae===""){if(c+1>=t.length)return L("",`bash: ${_W}: -${oe}: option requires an argument\\n${_W}: usage: ${_W} [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]\\n`,2);ae=t[++c]}' +
        'let v=Number.parseInt(ae,10),ok=_N.test(ae)&&v>=0;if(oe==="d")r=ae===""?"\\0":ae[0];else if(oe==="n"||oe==="s"){if(!ok)return _E(`${ae}: invalid line count`);oe==="n"?s=v:o=v}else if(oe==="O"){if(!ok)return _E(`${ae}: invalid array origin`);i=v}' +
        'else if(oe==="c"){if(!ok||v===0)return _E(`${ae}: invalid callback quantum`)}else if(oe==="u"){if(!ok)return _E(`${ae}: invalid file descriptor specification`);_u=v}break}}' +
        'c<t.length&&(l=t[c]);if(!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(l))return _E(`\\`${l}\': not a valid identifier`);if(e.state.associativeArrays?.has(l))return _E(`${l}: not an indexed array`);' +
        'if(_u>0){let q=Cs(e,_u);if("error"in q)return _E(`${_u}: invalid file descriptor: Bad file descriptor`);n=q.content}c=t.length;for(;c<t.length;){',
    },
  ],
};
