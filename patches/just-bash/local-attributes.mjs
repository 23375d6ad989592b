// `local` takes declare's attribute options (bash's manual: "local [option] name[=value] …: option can be any of the
// options accepted by declare"): -i (the value evaluated arithmetically), -l/-u (case), -r (readonly), -x (export),
// -A (an associative array, its `([key]=value …)` assigned by key);
// options end at the first name; `local` and `local -p` with no names list the function's locals as `declare -p` prints them (`declare -i li="4"`).
// just-bash ignored those options and listed `name=value`.
export default {
  title: 'local takes declare\'s attribute options and lists as declare -p',
  upstream: 'src/interpreter/builtins/local.ts (handleLocal): accept -i -l -u -r -x as declare does (attributes applied to each name after assignment), list locals in declare -p format',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'async function Uo(e,t){let n={maxElements:',
      replace:
        'async function Uo(e,t){let x="",opt=d=>/^-[a-zA-Z]+$/.test(d),k=0;for(;k<t.length&&opt(t[k]);k++)x+=t[k].slice(1);' +
        // Options end at the first name: a later `-l` is a name, and not a valid one.
        'let bad="",names=t.slice(k).filter(d=>opt(d)?(bad+=`bash: local: \\`${d}\': not a valid identifier\\n`,!1):!0);' +
        // -A makes associative arrays (`local -A m=([k]=v)`): what `declare -A` does in a function, which is local.
        'if(x.includes("A")&&e.state.localScopes.length>0){let r=await Do(e,[`-${x}`,...names]);return bad?{...r,stderr:bad+r.stderr,exitCode:1}:r}' +
        'let r=await __jbLocalBase(e,[...(x?[`-${x.replace(/[^nap]/g,"")}`]:[]),...names].filter(d=>d!=="-"));bad&&(r={...r,stderr:bad+r.stderr,exitCode:1});' +
        'if(!/[irxlu]/.test(x)||e.state.localScopes.length===0)return r;' +
        'for(let d of names){let n=/^[a-zA-Z_][a-zA-Z0-9_]*/.exec(d)?.[0];if(!n)continue;let arr=ve(e,n).length>0;' +
        'x.includes("i")&&(No(e,n),!arr&&e.state.env.has(n)&&e.state.env.set(n,await Fu(e,e.state.env.get(n))));x.includes("l")&&Ro(e,n);x.includes("u")&&Oo(e,n);' +
        '(x.includes("l")||x.includes("u"))&&!arr&&e.state.env.has(n)&&e.state.env.set(n,jn(e,n,e.state.env.get(n)));x.includes("x")&&mt(e,n);x.includes("r")&&Ze(e,n)}return r}' +
        'async function __jbLocalBase(e,t){let n={maxElements:',
    },
    {
      find: 'if(f.length===0){let d="",p=Array.from(r.keys()).sort();for(let h of p){let m=e.state.env.get(h);m!==void 0&&(d+=`${h}=${m}\n`)}return L(d,"",0)}',
      replace: 'if(f.length===0){let d="";for(let h of Array.from(r.keys()).sort())d+=spzDeclLine(e,h)??"";return L(d,"",0)}',
    },
  ],
};
