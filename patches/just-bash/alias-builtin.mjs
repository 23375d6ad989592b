// `alias` and `unalias` as bash's builtins (alias.def): `alias` and `alias -p` list every alias sorted by name,
// each value single-quoted as bash quotes it (`alias b='echo it'\''s'`); `alias a b` prints each that exists and
// reports each that does not (`bash: alias: x: not found`, status 1, placed as the shell's own messages), going on
// after it; a value is kept as the shell word gave it (quotes inside it stay). `unalias x` of a missing alias says
// `bash: unalias: x: not found` (status 1), and `unalias` alone prints its usage, status 2. just-bash listed aliases
// unsorted and unquoted, stopped at the first name, refused `-p`, stripped quotes from values, and left its
// messages without `bash: `.
export default {
  title: 'alias and unalias list, quote and report as bash does',
  upstream: 'src/commands/alias/alias.ts: -p, sorted listing with single-quoted values, every operand handled, messages prefixed "bash: "; unalias: "bash: " messages and usage status 2',
  file: 'dist/bundle/chunks/chunk-FHC24QSK.js',
  edits: [
    {
      find: 'if(e.length===0){let s="";for(let[i,t]of a.env)if(i.startsWith(o)){let n=i.slice(o.length);s+=`alias ${n}=\'${t}\'\n`}return{stdout:s,stderr:"",exitCode:0}}let l=e[0]==="--"?e.slice(1):e;for(let s of l){let i=s.indexOf("=");if(i===-1){let t=o+s;return a.env.get(t)?{stdout:`alias ${s}=\'${a.env.get(t)}\'\n`,stderr:"",exitCode:0}:{stdout:"",stderr:`alias: ${s}: not found\n`,exitCode:1}}else{let t=s.slice(0,i),n=s.slice(i+1);(n.startsWith("\'")&&n.endsWith("\'")||n.startsWith(\'"\')&&n.endsWith(\'"\'))&&(n=n.slice(1,-1)),a.env.set(o+t,n)}}return{stdout:"",stderr:"",exitCode:0}}',
      replace:
        'let Zq=n=>`\'${n.replace(/\'/g,"\'\\\\\'\'")}\'`,Zl=n=>`alias ${n}=${Zq(a.env.get(o+n))}\\n`,l=[...e];for(;l[0]==="-p";)l.shift();l[0]==="--"&&l.shift();' +
        'if(l.length===0){let s="";for(let i of[...a.env.keys()].filter(t=>t.startsWith(o)).map(t=>t.slice(o.length)).sort())s+=Zl(i);return{stdout:s,stderr:"",exitCode:0}}' +
        'let Zs="",Ze="",Zc=0;for(let s of l){let i=s.indexOf("=");if(i===-1){a.env.get(o+s)!==void 0?Zs+=Zl(s):(Ze+=`bash: alias: ${s}: not found\\n`,Zc=1)}else a.env.set(o+s.slice(0,i),s.slice(i+1))}return{stdout:Zs,stderr:Ze,exitCode:Zc}}',
    },
    {
      find: 'if(e.length===0)return{stdout:"",stderr:`unalias: usage: unalias [-a] name [name ...]\n`,exitCode:1};',
      replace: 'if(e.length===0)return{stdout:"",stderr:`unalias: usage: unalias [-a] name [name ...]\n`,exitCode:2};',
    },
    { find: 'a.env.get(n)?a.env.delete(n):(i+=`unalias: ${t}: not found\n`,s=!0)', replace: 'a.env.get(n)!==void 0?a.env.delete(n):(i+=`bash: unalias: ${t}: not found\\n`,s=!0)' },
  ],
};
