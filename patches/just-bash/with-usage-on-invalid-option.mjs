// `declare`, `typeset`, `local` (in a function), `export` and `readonly` refuse an option they do not take as bash
// does: `bash: line N: NAME: -Z: invalid option`, then the builtin's usage line, status 2 (builtins.c
// builtin_usage after internal_getopt's "invalid option"). just-bash named `typeset` for `declare` and gave no
// usage line (and named `typeset` in every message of `declare`); `local`, `export` and `readonly` took any option
// (`export -Z x` even said "not a valid identifier").
const USAGE = {
  declare: 'declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]',
  typeset: 'typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]',
  local: 'local [option] name[=value] ...',
  export: 'export [-fn] [name[=value] ...] or export -p',
  readonly: 'readonly [-aAf] [name[=value] ...] or readonly -p',
};
const helper =
  `function __jbBadOption(c,t,n){let U=${JSON.stringify(USAGE)}[t];if(!U||t==="local"&&!(c.state.callDepth>0))return null;` +
  'let ok=t==="export"?"fnp":t==="readonly"?"aAfp":"aAfFgiIlnrtuxp",plus=t!=="export"&&t!=="readonly";' +
  'for(let a of n){if(a==="--"||a.length<2||!(a[0]==="-"||plus&&a[0]==="+"))break;for(let ch of a.slice(1))if(!ok.includes(ch)||a[0]==="+"&&ch==="p")return L("",`bash: ${t}: ${a[0]}${ch}: invalid option\\n${t}: usage: ${U}\\n`,2)}return null}';
export default {
  title: 'declare, typeset, local, export and readonly refuse an unknown option with their usage line',
  upstream: 'src/interpreter/builtins (declare, local, export, readonly): check the options against each builtin\'s own set and print "NAME: usage: …" after "invalid option", status 2',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'let{ctx:c,runCommand:u}=e;c.state.__jbBuiltin=t;', replace: 'let{ctx:c,runCommand:u}=e;c.state.__jbBuiltin=t;{let _bo=__jbBadOption(c,t,n);if(_bo)return _bo}' },
    {
      // just-bash's declare words every message as `typeset`'s: `declare` names itself.
      find: 'if(t==="declare"||t==="typeset")return spzRoBuiltin(c,t,()=>Do(c,n));',
      replace: 'if(t==="declare"||t==="typeset")return spzRoBuiltin(c,t,async()=>{let r=await Do(c,n);return t==="declare"&&r?.stderr?.includes("bash: typeset: ")?{...r,stderr:r.stderr.replace(/(^|\\n)bash: typeset: /g,"$1bash: declare: ")}:r});',
    },
    { find: 'async function rn(e,t,n,r,s=new Map,i=new Map,o="bash",a=!1){', replace: `${helper}async function rn(e,t,n,r,s=new Map,i=new Map,o="bash",a=!1){` },
  ],
};
