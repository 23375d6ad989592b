// `getopts optstring name [arg ...]` as bash's manual gives it: OPTARG is unset unless the option found carries an
// argument (or, in silent mode, names the bad option); an unknown option or a missing argument sets NAME to `?`
// (silent mode: `?` with OPTARG the option, or `:` for a missing argument) and reports `$0: illegal option -- x` /
// `$0: option requires an argument -- x` unless the optstring starts with `:` or OPTERR is 0; the end of the
// options (a word that is not one, `-`, or `--`, which is skipped) returns 1 with NAME `?` and OPTIND at the first
// operand; a NAME that is not an identifier is an error (status 1). Assigning OPTIND restarts within a word.
// just-bash set OPTARG to "" every time, ignored OPTERR, and returned 2 silently for a bad NAME.
export default {
  title: 'getopts: OPTARG unset when no argument, OPTERR=0, a bad name',
  upstream: 'src/interpreter/builtins/getopts.ts (handleGetopts): unset OPTARG unless set, honour OPTERR=0, reject a NAME that is not an identifier (status 1), tie the in-word index to the OPTIND it belongs to',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function _s(e,t){if(t.length<2)',
      replace:
        'function _s(e,t){let v=e.state.env;if(t.length<2)return D("getopts: usage: getopts optstring name [arg ...]\\n",2);' +
        'let[sp,nm]=t;if(!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(nm))return D(`bash: getopts: \\`${nm}\': not a valid identifier\\n`,1);' +
        'let sil=sp.startsWith(":"),op=sil?sp.slice(1):sp,quiet=sil||v.get("OPTERR")==="0",a;' +
        'if(t.length>2)a=t.slice(2);else{a=[];let n=Number.parseInt(v.get("#")||"0",10);for(let w=1;w<=n;w++)a.push(v.get(String(w))||"")}' +
        'let ind=Number.parseInt(v.get("OPTIND")||"1",10);(!(ind>=1))&&(ind=1);' +
        'let cs=(v.get("__GETOPTS_CHARINDEX")||"").split(":"),ci=cs.length===2&&Number(cs[0])===ind?Number(cs[1]):0;' +
        'v.delete("OPTARG");let put=(i,c)=>{v.set("OPTIND",String(i));v.set("__GETOPTS_CHARINDEX",c?`${i}:${c}`:"0")};' +
        'let end=i=>(put(i,0),v.set(nm,"?"),{exitCode:1,stdout:"",stderr:""});' +
        'if(ind>a.length)return end(ind);let w=a[ind-1];' +
        'if(ci===0){if(!w.startsWith("-")||w==="-")return end(ind);if(w==="--")return end(ind+1);ci=1}' +
        'let c=w[ci],last=ci+1>=w.length,step=()=>last?put(ind+1,0):put(ind,ci+1),k=c===":"?-1:op.indexOf(c),msg="";' +
        'if(k<0){step();sil?v.set("OPTARG",c):quiet||(msg=`bash: illegal option -- ${c}\\n`);v.set(nm,"?");return{exitCode:0,stdout:"",stderr:msg}}' +
        'if(op[k+1]===":"){if(!last){v.set("OPTARG",w.slice(ci+1));put(ind+1,0)}else if(ind<a.length){v.set("OPTARG",a[ind]);put(ind+2,0)}' +
        'else{put(ind+1,0);if(sil){v.set("OPTARG",c);v.set(nm,":")}else{quiet||(msg=`bash: option requires an argument -- ${c}\\n`);v.set(nm,"?")}return{exitCode:0,stdout:"",stderr:msg}}}' +
        'else step();v.set(nm,c);return{exitCode:0,stdout:"",stderr:""}}function __jbGetoptsOld(e,t){if(t.length<2)',
    },
  ],
};
