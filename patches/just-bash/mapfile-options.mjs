// The mapfile options just-bash skipped with their values (`-u`, `-C`, `-c`), as bash's manual gives them ("Bash
// Builtin Commands", mapfile): `-u FD` reads from file descriptor FD (the lines it reads are consumed from FD; a FD not
// open for reading is `mapfile: FD: invalid file descriptor: Bad file descriptor`, status 1); `-C CALLBACK -c
// QUANTUM`: every QUANTUM lines (5000 by default) bash evaluates `CALLBACK INDEX LINE` (the index of the element
// about to be assigned, and its value as it will be stored, quoted) before assigning it, its output being mapfile's;
// a QUANTUM that is not a positive number is `mapfile: Q: invalid callback quantum`, status 1.
export default {
  title: 'mapfile -u, -C and -c',
  upstream: 'src/interpreter/builtins/mapfile.ts (handleMapfile): parse -u/-C/-c, read -u FD\'s content and consume it, evaluate "CALLBACK INDEX LINE" every QUANTUM lines before the element is assigned, reject a quantum below 1',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'function jo(e,t,n){let r=', replace: 'async function jo(e,t,n){let cb,q="5000",fd,r=' },
    {
      find: 'g==="-u"||g==="-C"||g==="-c"?c+=2:',
      replace: 'g==="-C"&&c+1<t.length?(cb=t[c+1],c+=2):g==="-c"&&c+1<t.length?(q=t[c+1],c+=2):g==="-u"&&c+1<t.length?(fd=t[c+1],c+=2):',
    },
    {
      find: 'fe(e,l,"mapfile");let u=n;!u&&e.state.groupStdin!==void 0&&(u=e.state.groupStdin);',
      replace:
        'fe(e,l,"mapfile");let u=n;!u&&e.state.groupStdin!==void 0&&(u=e.state.groupStdin);let fdn=fd===void 0?0:Number(fd),fdIn=fdn>0&&!(tt(e,fdn)?.kind==="dup-in"&&tt(e,fdn).sourceFd===0);' +
        'if(fd!==void 0&&!/^\\d+$/.test(fd))return L("",`bash: mapfile: ${fd}: invalid file descriptor specification\\n`,1);if(fdIn){let C=Cs(e,fdn);if("error"in C)return L("",`bash: mapfile: ${fd}: invalid file descriptor: Bad file descriptor\\n`,1);u=C.content}',
    },
    {
      find: 'i===0&&Ee(e,l);for(let g=0;g<f.length;g++)Z(e,l,i+g,f[g]);return e.state.groupStdin!==void 0&&!n&&(e.state.groupStdin=""),{...L("","",0),',
      replace:
        'if(!/^\\s*[+]?\\d+\\s*$/.test(q)||+q<1)return L("",`bash: mapfile: ${q}: invalid callback quantum\\n`,1);let O="",E="";' +
        'i===0&&Ee(e,l);for(let g=0;g<f.length;g++){if(cb!==void 0&&(g+1)%+q===0){let R=await e.executeScript(Ge(`${cb} ${i+g} \'${f[g].replace(/\'/g,"\'\\\\\'\'")}\'`));O+=R.stdout;E+=R.stderr}Z(e,l,i+g,f[g])}' +
        'if(fdIn){let pos=0;for(let k=0;k<o+f.length&&pos<u.length;k++){let j=u.indexOf(r,pos);pos=j<0?u.length:j+r.length}return tn(e,fdn,pos),L(O,E,0)}return e.state.groupStdin!==void 0&&!n&&(e.state.groupStdin=""),{...L(O,E,0),',
    },
  ],
};
