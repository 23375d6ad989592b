// bash's manual, "Bash Builtins" (declare): the integer attribute's arithmetic evaluation and the -l/-u case
// conversion happen "when the variable is assigned a value", whatever assigns it: the words of `for NAME in …`,
// `${NAME:=word}` (which expands to the value stored), and the builtins that assign variables they are given — read
// (and read -a), printf -v, mapfile/readarray, getopts. A value that does not evaluate is the arithmetic error, named
// after the builtin (`read: 08: value too great for base …`), and the script ends with status 1. just-bash stored
// those values as they were (`declare -i n; read n <<< 2+3` gave `2+3`, `declare -u u; for u in ab` gave `ab`).
function __jbTypedValue(c, name, value, label) {
  // The value NAME holds once assigned `value`: evaluated (integer attribute), then case-converted.
  return (Er(c, name) ? __jbIntEval(c, value, value, label) : Promise.resolve(value)).then((v) => jn(c, name, v));
}
function __jbTypedSnap(c) {
  // The values of the variables that have an integer or case attribute (a few, usually none): NAME -> scalar, elements.
  const names = new Set([...(c.state.integerVars ?? []), ...(c.state.lowercaseVars ?? []), ...(c.state.uppercaseVars ?? [])]);
  const snap = new Map();
  for (const k of names) {
    const keys = c.state.associativeArrays?.has(k) ? Et(c, k) : ve(c, k);
    snap.set(k, { value: c.state.env.get(k), elements: new Map(keys.map((i) => [i, le(c, k, i)])) });
  }
  return snap;
}
async function __jbTypedApply(c, snap, label) {
  // Applies the attributes to what changed since `snap`.
  for (const [k, was] of snap) {
    const assoc = c.state.associativeArrays?.has(k);
    const keys = assoc ? Et(c, k) : ve(c, k);
    if (keys.length > 0) {
      for (const i of keys) {
        const v = le(c, k, i) ?? '';
        if (was.elements.get(i) === v) continue;
        const nv = await __jbTypedValue(c, k, v, label);
        if (nv !== v) assoc ? Z(c, k, i, nv, 'associative') : Z(c, k, i, nv);
      }
      continue;
    }
    const v = c.state.env.get(k);
    if (v === undefined || v === was.value) continue;
    const nv = await __jbTypedValue(c, k, v, label);
    if (nv !== v) c.state.env.set(k, nv);
  }
}

export default {
  title: 'integer and case attributes apply to values assigned by for, ${NAME:=word}, read, printf -v, mapfile/readarray and getopts',
  upstream:
    'src/interpreter (for loop variable, AssignDefault expansion) and the builtins read, printf -v, mapfile, getopts: assign through the function that applies the integer attribute and the case conversion, as declare does',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'async function df(e,t,n,r,s,i,o,a,l=!1){if(t==="umask")',
      replace: `${__jbTypedValue.toString()}${__jbTypedSnap.toString()}${__jbTypedApply.toString()}async function df(e,t,n,r,s,i,o,a,l=!1){if(!e.ctx.state.__jbTypedIn&&/^(read|printf|mapfile|readarray|getopts)$/.test(t)&&(e.ctx.state.integerVars?.size||e.ctx.state.lowercaseVars?.size||e.ctx.state.uppercaseVars?.size)){let _c=e.ctx,_w=__jbTypedSnap(_c),_r;_c.state.__jbTypedIn=!0;try{_r=await df(e,t,n,r,s,i,o,a,l)}finally{_c.state.__jbTypedIn=!1}await __jbTypedApply(_c,_w,\`\${t}: \`);return _r}if(t==="umask")`,
    },
    {
      // for NAME in WORDS.
      find: 'type:"ForHead",_text:t.words===null?`for ${t.variable}`:`for ${t.variable} in ${t.words.map(we).join(" ")}`,line:t.line});',
      replace: 'type:"ForHead",_text:t.words===null?`for ${t.variable}`:`for ${t.variable} in ${t.words.map(we).join(" ")}`,line:t.line});o=await __jbTypedValue(e,t.variable,o,"");',
    },
    {
      // ${NAME:=word}, ${NAME[i]:=word}: the value stored is the value of the expansion.
      find: 'Number.isNaN(u)&&(u=0)}Z(e,l,u,o)}else e.state.env.set(t,o);return o}',
      replace: 'Number.isNaN(u)&&(u=0)}o=await __jbTypedValue(e,l,o,""),Z(e,l,u,o)}else o=await __jbTypedValue(e,t,o,""),e.state.env.set(t,o);return o}',
    },
    {
      // printf -v NAME (the commands' gateway to assign a shell variable; printf is its only user).
      find: 'if(R===void 0)i.state.env.set($,k);else{let V=i.state.associativeArrays',
      // The arithmetic error stops printf (its own report of it is dropped) and is kept on the shell's state: once
      // printf has returned, the command runner below throws it, so it ends the script as any assignment's does.
      replace: 'try{k=await __jbTypedValue(i,$,k,"printf: ")}catch(_e){_e instanceof ce&&typeof _e.stderr=="string"&&(i.state.spzAssignFatal=_e);throw _e instanceof ce&&typeof _e.stderr=="string"?new Error(_e.stderr.replace(/^[^\\n]*?printf: /,"").trimEnd()):_e}if(R===void 0)i.state.env.set($,k);else{let V=i.state.associativeArrays',
    },
    {
      // A command that assigned a shell variable (printf -v) and met an arithmetic error: the error ends the script
      // (or the subshell) as bash's does, with the command's standard output written before it.
      find: 'A=u.trusted?await Ce.runTrustedAsync(k):await k();let Zc=',
      replace: 'A=u.trusted?await Ce.runTrustedAsync(k):await k();if(i.state.spzAssignFatal){let _f=i.state.spzAssignFatal;i.state.spzAssignFatal=void 0,_f.spzAssignFatal=!0,_f.stdout=(A.stdout??"")+(_f.stdout??"");throw _f}let Zc=',
    },
    {
      find: 'catch(v){if(v instanceof x||v instanceof ze||v instanceof _t)throw v;return D(`${t}: ${wt($t(v))}',
      replace: 'catch(v){if(v instanceof x||v instanceof ze||v instanceof _t||v?.spzAssignFatal)throw v;return D(`${t}: ${wt($t(v))}',
    },
  ],
};
