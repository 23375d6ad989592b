// A parameter expansion bash cannot read (`${x:}`, `${x!}`, `${1x}`, `${x[1][2]}`) is not a syntax error: the word
// parses (bash only matches the braces) and fails when expanded, `bash: line N: ${x!}: bad substitution`. Like an
// arithmetic expansion error it abandons the whole command line it is on (the rest of a `;` list, the loop or
// function it is in) with status 1, and the shell goes on with the next line; a subshell, `$(…)` or pipeline stage
// ends there with 1. Bash's subst.c (parameter_brace_expand: "bad substitution", expand_word_error's DISCARD).
// just-bash refused the script at parse time (`${x!}`), read `${x:}` as `${x:0}`, and on a bad substitution it
// did see failed only the command (or, at the top, ended the script).
export default {
  title: 'a bad substitution fails when expanded and abandons its command line, as an arithmetic error does',
  upstream: 'src/parser/expansion-parser.ts parseParameterExpansion: an unreadable ${…} (unknown operator character, empty substring offset) becomes a BadSubstitution part instead of a parse error; src/interpreter: BadSubstitutionError is handled as ArithmeticError (abandon the line, status 1), its message the whole ${…}',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // Every place that handles an arithmetic expansion error (abandon the line; a subshell or stage ends with 1)
      // handles a bad substitution too.
      find: 'import{a as kn,b as He,c as Qe,d as Te,e as We,f as Ve,g as G,h as ce,i as Ke,j as Lt,k as Rr,l as x,m as ze,n as Mt,o as Or,p as st}from"./chunks/chunk-EFORKKSH.js";',
      replace: 'import{a as kn,b as He,c as Qe,d as Te,e as We,f as Ve,g as G,h as ce,i as Ke,j as Lt,k as Rr,l as x,m as ze,n as Mt,o as Or,p as st}from"./chunks/chunk-EFORKKSH.js";Object.setPrototypeOf(Ke.prototype,ce.prototype);Ke.prototype.fatal=!0;',
    },
    {
      find: 'if($ instanceof Ke)N={stdout:$.stdout,stderr:$.stderr,exitCode:1};',
      // (and a pipeline stage's message, which no statement placed, gets its place here)
      replace: '($ instanceof ce||$ instanceof Ve)&&typeof $.stderr=="string"&&($.stderr=__jbPlace(e,$.stderr));if($ instanceof Ke&&!($ instanceof ce))N={stdout:$.stdout,stderr:$.stderr,exitCode:1};',
    },
    {
      find: 'if(i instanceof Ke)return r.append(',
      replace: 'if(i instanceof Ke&&!(i instanceof ce))return r.append(',
    },
    {
      // The parser: an operator character bash does not know.
      find: 'let d=t.slice(n,f+1);e.error(`\\${${d.slice(2,-1)}}: bad substitution`)}}',
      replace: 'let d=t.slice(n,f+1);return{part:M.parameterExpansion("",{type:"BadSubstitution",text:d.slice(2,-1)}),endIndex:f+1}}}',
    },
    {
      // Nothing after the colon (`${x:}`; `${x::}` is offset 0, length 0).
      find: 'let h=f>=0?u.slice(0,f):u,m=f>=0?u.slice(f+1):null;return{operation:{type:"Substring",',
      replace: 'let h=f>=0?u.slice(0,f):u,m=f>=0?u.slice(f+1):null;if(u==="")return{operation:{type:"BadSubstitution",text:`${r}:${u}`},endIndex:c};return{operation:{type:"Substring",',
    },
    {
      find: 'case"BadSubstitution":throw new Ke(s.text);',
      replace: 'case"BadSubstitution":if(s.fatal)throw Object.assign(new G(1,"",`bash: \\${${s.text}}: bad substitution\\n`),{spzShellStatus:e.state.options.errexit||e.state.scriptFile!==void 0?1:127});throw new Ke(`\\${${s.text}}`);',
    },
    {
      // `${x@}`, `${x@Z}`: an unknown transformation ends the shell (127 for a -c string, 1 for a script file).
      find: 'return o==="@"&&/[QPaAEKkuUL]/.test(a)?{operation:{type:"Transform",operator:a},endIndex:i+2}:{operation:null,endIndex:i}}',
      replace: 'if(o==="@"&&!/[QPaAEKkuUL]/.test(a)){let l=mn(e,t,i);return{operation:{type:"BadSubstitution",text:`${r}${t.slice(i,l)}`,fatal:!0},endIndex:l}}return o==="@"&&/[QPaAEKkuUL]/.test(a)?{operation:{type:"Transform",operator:a},endIndex:i+2}:{operation:null,endIndex:i}}',
    },
    {
      // `${#x:}`, `${#x:1}`: the whole expansion names itself.
      find: 'case"LengthSliceError":throw new Ke(r);',
      replace: 'case"LengthSliceError":throw new Ke(`\\${#${t.parameter}:${s.text??""}}`);',
    },
  ],
};
