// A `"$@"` (or `"${a[@]}"`) in the word of `${p-word}`, `${p:-word}`, `${p+word}` or `${p:+word}` expands to one
// field per element, as it does anywhere else (bash's manual, "Special Parameters": "When the expansion occurs
// within double quotes, each parameter expands to a separate word"; subst.c expands the operator's word with the
// same word-list machinery): `${1+"$@"}` is the portable idiom for "all the arguments, even under set -u". So is
// `"${@:-x}"` when there are arguments. just-bash expanded the operator to one string, so the arguments were
// joined into one word. Here, before a word is expanded, such an operator is replaced by the parts of the word it
// chooses (or, for a default not taken on `@`/`a[@]`, by the plain `$@`/`${a[@]}`), and the word is expanded again.
export default {
  title: '"$@" inside ${p+word} / ${p-word} expands to separate words',
  upstream: 'src/interpreter/expansion/word-glob-expansion.ts expandWordWithGlob: before the special cases, splice the chosen word of a DefaultValue/UseAlternative operator into the word when it holds a field-producing "$@" or "${a[@]}", and expand the result',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'async function Ic(e,t,n){e.coverage?.hit("bash:expansion:word_glob");',
      replace: 'async function Ic(e,t,n){e.coverage?.hit("bash:expansion:word_glob");{let __rw=await _jbOperatorFields(e,t.parts,!1);if(__rw)return Ic(e,{...t,parts:__rw},n)}',
    },
    {
      find: 'async function Op(e,t,n)',
      replace: 'function _jbFieldParam(p){return p==="@"||/^[A-Za-z_][A-Za-z0-9_]*\\[@\\]$/.test(p)}function _jbHasFields(parts,q){return parts.some(p=>p.type==="DoubleQuoted"?_jbHasFields(p.parts,!0):p.type==="ParameterExpansion"&&(q&&_jbFieldParam(p.parameter)&&!p.operation||(p.operation?.type==="DefaultValue"||p.operation?.type==="UseAlternative")&&_jbHasFields(p.operation.word?.parts??[],q)))}async function _jbOperatorFields(e,parts,q){let out=[],changed=!1;for(let p of parts){if(p.type==="DoubleQuoted"&&!q){let r=await _jbOperatorFields(e,p.parts,!0);r?(out.push({...p,parts:r}),changed=!0):out.push(p);continue}let op=p.type==="ParameterExpansion"?p.operation:void 0;if(op&&(op.type==="DefaultValue"||op.type==="UseAlternative")){let w=op.word?.parts??[],chosen=w.length>0?await Tc(e,p):null;if(chosen&&_jbHasFields(w,q)&&!(q&&w.some(x=>x.type==="SingleQuoted"||x.type==="Escaped"))){let r=await _jbOperatorFields(e,w,q)??w;for(let x of r)q&&x.type==="DoubleQuoted"?out.push(...x.parts):out.push(x);changed=!0;continue}if(!chosen&&q&&op.type==="DefaultValue"&&_jbFieldParam(p.parameter)&&await St(e,p.parameter)&&!(op.checkEmpty&&await ie(e,p.parameter,!1)==="")){out.push({...p,operation:void 0});changed=!0;continue}}out.push(p)}return changed?out:null}async function Op(e,t,n)',
    },
  ],
};
