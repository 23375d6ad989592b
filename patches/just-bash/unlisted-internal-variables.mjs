// The embedder keeps a few shell variables of its own (their names start with `__spritzer_`: the last background
// pid behind `$!`, a shell's resource limits behind `ulimit`). They are the shell's state, not the script's: bash has
// no such variables, so `set`, `declare -p`, `declare`, `compgen -v` and `${!prefix*}` must not list them (a script
// that greps its own `set` output, or counts its variables, would see them). Named lookups still reach them.
const INTERNAL = '/^__spritzer_/.test';

export default {
  title: "The embedder's own shell variables (`__spritzer_*`) are not listed by set, declare, compgen -v or ${!prefix*}",
  upstream: 'src/interpreter/builtins: set (no arguments), declare/typeset -p and bare listings, compgen -v, and ${!prefix*} in expansion/variable.ts skip names of an embedder-reserved prefix',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'for(let[u,f]of e.state.env)/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(u)&&(i.has(u)||o.has(u)||a.push([u,f]))',
      replace: `for(let[u,f]of e.state.env)/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(u)&&!${INTERNAL}(u)&&(i.has(u)||o.has(u)||a.push([u,f]))`,
    },
    {
      find: 'function In(e,t){let n=new Set;for(let r of e.state.env.keys())r.startsWith(t)&&n.add(r);',
      replace: `function In(e,t){let n=new Set;for(let r of e.state.env.keys())r.startsWith(t)&&!${INTERNAL}(r)&&n.add(r);`,
    },
    {
      find: 'function $h(e,t,n){let r=ct(e,t,n);for(let s of e.state.env.keys())/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(s)&&r.add(s);',
      replace: `function $h(e,t,n){let r=ct(e,t,n);for(let s of e.state.env.keys())/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(s)&&!${INTERNAL}(s)&&r.add(s);`,
    },
    {
      find: 'for(let f of e.state.env.keys())f.startsWith("BASH_")||c.add(f);',
      replace: `for(let f of e.state.env.keys())f.startsWith("BASH_")||${INTERNAL}(f)||c.add(f);`,
    },
    {
      find: 'function Mu(e){let t="",n=new Set;for(let s of e.state.env.keys())s.startsWith("BASH_")||n.add(s);',
      replace: `function Mu(e){let t="",n=new Set;for(let s of e.state.env.keys())s.startsWith("BASH_")||${INTERNAL}(s)||n.add(s);`,
    },
  ],
};
