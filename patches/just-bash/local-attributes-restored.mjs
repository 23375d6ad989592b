// When a function returns, every name it made local is as it was before the call: its value, and also whether it
// existed at all and its attributes (bash's manual, "Shell Functions": local variables are visible only to the
// function and the commands it invokes). just-bash restored the value only, so after `f() { local x=1; }; f` the
// caller's `declare -p x` printed `declare -- x` (status 0) instead of `x: not found`, and a `local -r r` left the
// caller with a readonly `r`.
export default {
  title: "a function's locals leave no declared name or attribute behind in the caller",
  upstream: "src/interpreter/functions.ts callFunction (the local scope records, for each name it first takes, whether the name was declared, readonly, integer, case-converting or a nameref, and its local depth; the scope's end puts those back)",
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function yu(e,t){',
      replace:
        'var __jbAttrSets=["declaredVars","readonlyVars","integerVars","lowercaseVars","uppercaseVars","namerefs"];' +
        // A scope map that notes, the first time it takes a name, what that name was before.
        'function __jbScopeMap(e){let m=new Map,set=m.set.bind(m);m.spzAttr=new Map;m.set=(k,v)=>{if(!m.has(k)){let s=e.state,rec={depth:s.localVarDepth?.get(k)};for(let n of __jbAttrSets)rec[n]=!!s[n]?.has(k);m.spzAttr.set(k,rec)}return set(k,v)};return m}' +
        'function __jbRestoreAttrs(e,a){let s=e.state;for(let[k,rec]of a){for(let n of __jbAttrSets)rec[n]?(s[n]??=new Set).add(k):s[n]?.delete(k);rec.depth===void 0?s.localVarDepth?.delete(k):(s.localVarDepth??=new Map).set(k,rec.depth)}}' +
        'function yu(e,t){',
    },
    {
      find: 'e.state.sourceStack.unshift(t.sourceFile??"main"),e.state.localScopes.push(new Map),',
      replace: 'e.state.sourceStack.unshift(t.sourceFile??"main"),e.state.localScopes.push(__jbScopeMap(e)),',
    },
    {
      find: 'e.state.sourceStack?.shift(),e.state.callDepth--,e.state.errexitSafe=!1}',
      replace: 'e.state.sourceStack?.shift(),h?.spzAttr&&__jbRestoreAttrs(e,h.spzAttr),e.state.callDepth--,e.state.errexitSafe=!1}',
    },
  ],
};
