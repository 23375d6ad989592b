// `declare -p` (and the `declare -a`/`-A`, `readonly` and `export` listings) print a variable as bash 5.2 does: every attribute in
// bash's order (a A i n r x l u), so a readonly array is `declare -ar`; an associative array as
// `declare -A m=([k]="v" )` (values double-quoted, keys quoted only when they need it, a space before `)`); and an
// array declared but never assigned (`declare -a a`, `declare -A m`) without `=()`, as bash shows an unset variable;
// the shell's own PPID, UID, EUID (integer, readonly) and BASHPID (integer) with their attributes.
// bash's builtins/declare.def, variables.c print_assignment, arrayfunc.c array_to_assignment_string,
// assoc.c assoc_to_assignment_string.
export default {
  title: 'declare -p prints attributes, associative arrays and unset arrays as bash does',
  upstream: 'src/interpreter/builtins/declare-print.ts printVariables/listAllVariables: one bash-format line per variable (attribute order a A i n r x l u, assoc "[k]=\\"v\\" " pairs, no "=()" for a declared unset array); declare.ts marks an array declared without a value',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function Du(e,t){',
      replace: 'function spzDeclKey(d){return gr(d)?Ao(d):/[ \\t\\n\'"\\\\|&;()<>!{}*[?\\]^$`]|^[#~]|[=:]~/.test(d)||d==="@"?`"${d.replace(/[\\\\"$`]/g,"\\\\$&")}"`:d}function spzDeclLine(e,i){if(!e.state.env.has(i)){let sv={PPID:e.state.virtualPpid,UID:e.state.virtualUid,EUID:e.state.virtualUid,BASHPID:e.state.bashPid}[i];if(sv!==void 0)return`declare -${i==="BASHPID"?"i":"ir"} ${i}="${sv}"\n`}let A=e.state.associativeArrays?.has(i),y=Pe(e,i),a=!A&&y!==void 0,f=(a?"a":"")+(A?"A":"")+(e.state.integerVars?.has(i)?"i":"")+(ue(e,i)?"n":"")+(e.state.readonlyVars?.has(i)?"r":"")+(e.state.exportedVars?.has(i)?"x":"")+(e.state.lowercaseVars?.has(i)?"l":"")+(e.state.uppercaseVars?.has(i)?"u":"");f=f?`-${f}`:"--";if(A||a){let k=A?Et(e,i):ve(e,i);if(k.length===0)return y?.spzUnset?`declare ${f} ${i}\n`:`declare ${f} ${i}=()\n`;return A?`declare ${f} ${i}=(${k.map(d=>`[${spzDeclKey(d)}]=${sn(le(e,i,d)??"")} `).join("")})\n`:`declare ${f} ${i}=(${k.map(d=>`[${d}]=${sn(le(e,i,d)??"")}`).join(" ")})\n`}let c=e.state.env.get(i);if(c!==void 0)return`declare ${f} ${i}=${wr(c)}\n`;if(e.state.declaredVars?.has(i)||e.state.localVarDepth?.has(i)||e.state.readonlyVars?.has(i)||e.state.exportedVars?.has(i))return`declare ${f} ${i}\n`}function Du(e,t){',
    },
    // declare -p NAME…
    { find: 'let o=Du(e,i);if(', replace: 'let o=Du(e,i),spz=spzDeclLine(e,i);if(spz!==void 0){n+=spz;continue}if(' },
    // declare -p (every variable)
    { find: 's&&!ue(e,f)))continue;', replace: 's&&!ue(e,f)))continue;l+=spzDeclLine(e,f)??"";continue;' },
    // export, export -p: an exported variable that is unset shows as `declare -x NAME`
    { find: 'for(let c of l){let u=e.state.env.get(c);u!==void 0&&(o+=`declare -x ${c}=${wr(u)}', replace: 'for(let c of l){o+=spzDeclLine(e,c)??"";continue;let u=e.state.env.get(c);u!==void 0&&(o+=`declare -x ${c}=${wr(u)}' },
    // declare -A, declare -a
    { find: 'n=Array.from(e.state.associativeArrays??[]).sort();for(let r of n){', replace: 'n=Array.from(e.state.associativeArrays??[]).sort();for(let r of n){t+=spzDeclLine(e,r)??"";continue;' },
    { find: 'for(let s of r){let i=ve(e,s);', replace: 'for(let s of r){t+=spzDeclLine(e,s)??"";continue;let i=ve(e,s);' },
    // readonly, readonly -p
    { find: 'for(let c of l){let u=e.state.env.get(c);if(u!==void 0){', replace: 'for(let c of l){a+=spzDeclLine(e,c)??"";continue;let u=e.state.env.get(c);if(u!==void 0){' },
    // declare -a NAME / declare -A NAME with no value: the array exists, unset, until something is assigned.
    { find: '!e.state.env.has(O)&&!U&&(r||s?zt(e,O,s?"associative":"indexed"):', replace: '!e.state.env.has(O)&&!U&&(r||s?zt(e,O,s?"associative":"indexed").spzUnset=!0:' },
    { find: 'e.state.associativeArrays.add(O),zt(e,O,"associative")}let U=Ne(e,O);', replace: 'e.state.associativeArrays.add(O),Ne(e,O)||(zt(e,O,"associative").spzUnset=!0)}let U=Ne(e,O);' },
    { find: 'i.elements.set(o,r)}function dn(', replace: 'i.elements.set(o,r),delete i.spzUnset}function dn(' },
    { find: 'function Ee(e,t){rr(e,t,e.state.associativeArrays?.has(t)?"associative":"indexed").elements.clear()}', replace: 'function Ee(e,t){let r=rr(e,t,e.state.associativeArrays?.has(t)?"associative":"indexed");r.elements.clear(),delete r.spzUnset}' },
  ],
};
