// With `set -x`, a declaration builtin (`declare`, `typeset`, `local`, `export`, `readonly`) given a compound array
// assignment `NAME=(…)` traces that assignment first, each element single-quoted and each subscript quoted
// (`+ m=(['k']='v')`, `+ a=('1' 'x y')`, `+= ` as written), then the command with the bare NAME (`+ declare -A m`),
// as bash 5.2 does. just-bash traced the command with the assignment as one quoted word.
const ELEMENTS = String.raw`function __jbArrayElems(s){let out=[],i=0,n=s.length;const word=(all)=>{let val="";for(;i<n;){let c=s[i];if(!all&&/\s/.test(c))break;if(c==="'"){let j=s.indexOf("'",i+1);j<0&&(j=n);val+=s.slice(i+1,j);i=j+1;continue}if(c==='"'){let j=i+1;for(;j<n&&s[j]!=='"';j++){if(s[j]==="\\"&&j+1<n&&'"\\$\x60'.includes(s[j+1]))j++;val+=s[j]}i=j+1;continue}if(c==="\\"&&i+1<n){val+=s[i+1];i+=2;continue}val+=c;i++}return val};for(;i<n;){for(;i<n&&/\s/.test(s[i]);)i++;if(i>=n)break;let k;if(s[i]==="["){let j=s.indexOf("]=",i);if(j>0){let r=s.slice(i+1,j);i=0;let save=s;s=r;n=r.length;k=word(!0);s=save;n=s.length;i=j+2}}out.push({k,v:word(!1)})}return out}`;
export default {
  title: 'set -x traces the compound array assignment of declare/local/export/readonly before the command',
  upstream: 'src/interpreter/interpreter.ts executeSimpleCommandInner: for a declaration builtin, trace each NAME=(…) word as an array assignment with quoted elements, then the command with NAME alone',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let S=await ef(this.ctx,u,f);if(S&&(u==="export"||u==="readonly"))for(let a of f){',
      replace:
        'let _tp="",_tf=f;if(this.ctx.state.options.xtrace&&["declare","typeset","local","export","readonly"].includes(u)){_tf=[];for(let a of f){let m=/^([A-Za-z_][A-Za-z0-9_]*)(\\+?)=\\((.*)\\)$/s.exec(a);' +
        'if(!m){_tf.push(a);continue}let q=x=>"\'"+x.replace(/\'/g,"\'\\\\\'\'")+"\'";' +
        '_tp+=`${await Ju(this.ctx)}${m[1]}${m[2]}=(${__jbArrayElems(m[3]).map(x=>(x.k!==void 0?`[${q(x.k)}]=`:"")+q(x.v)).join(" ")})\\n`;_tf.push(m[1])}}' +
        'let S=await ef(this.ctx,u,_tf);S&&(S=_tp+S);if(S&&(u==="export"||u==="readonly"))for(let a of _tf){',
    },
    {
      find: 'async function tf(e,t,n){',
      replace: `${ELEMENTS}async function tf(e,t,n){`,
    },
  ],
};
