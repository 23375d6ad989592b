// `mapfile -C CALLBACK -c QUANTUM`: every QUANTUM lines (5000 by default) bash evaluates `CALLBACK INDEX LINE` (the
// index of the element about to be assigned, and its value as it will be stored, quoted) before assigning it; its
// output is mapfile's. A QUANTUM that is not a positive number is `mapfile: Q: invalid callback quantum`, status 1.
// Bash's manual, "Bash Builtin Commands" (mapfile). just-bash skipped both options and their values.
export default {
  title: 'mapfile -C callback and -c quantum',
  upstream: 'src/interpreter/builtins/mapfile.ts (handleMapfile): parse -C/-c, evaluate "CALLBACK INDEX LINE" every QUANTUM lines before the element is assigned, reject a quantum below 1',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'function jo(e,t,n){let r=', replace: 'async function jo(e,t,n){let cb,q="5000",r=' },
    {
      find: 'g==="-u"||g==="-C"||g==="-c"?c+=2:',
      replace: 'g==="-C"&&c+1<t.length?(cb=t[c+1],c+=2):g==="-c"&&c+1<t.length?(q=t[c+1],c+=2):g==="-u"?c+=2:',
    },
    {
      find: 'i===0&&Ee(e,l);for(let g=0;g<f.length;g++)Z(e,l,i+g,f[g]);return e.state.groupStdin!==void 0&&!n&&(e.state.groupStdin=""),{...L("","",0),',
      replace:
        'if(!/^\\s*[+]?\\d+\\s*$/.test(q)||+q<1)return L("",`bash: mapfile: ${q}: invalid callback quantum\\n`,1);let O="",E="";' +
        'i===0&&Ee(e,l);for(let g=0;g<f.length;g++){if(cb!==void 0&&(g+1)%+q===0){let R=await e.executeScript(Ge(`${cb} ${i+g} \'${f[g].replace(/\'/g,"\'\\\\\'\'")}\'`));O+=R.stdout;E+=R.stderr}Z(e,l,i+g,f[g])}' +
        'return e.state.groupStdin!==void 0&&!n&&(e.state.groupStdin=""),{...L(O,E,0),',
    },
  ],
};
