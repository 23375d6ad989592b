// `set -u` names an unset positional or special parameter as the script wrote it: `$1` and `$!` with their `$`
// (`$1: unbound variable`), `${1}` and `${1:2}` bare (`1: unbound variable`), as bash's subst.c does (param_expand
// passes the `$`-form text of a short parameter to err_unboundvar; parameter_brace_expand the name inside the braces).
// just-bash always wrote the bare name. The parser marks the short form (`spzShort`), and the expansion of a part so
// marked renames the error it raises.
export default {
  title: 'an unset positional parameter under set -u is named as written: $1 bare, ${1} without the $',
  upstream: 'src/parser/expansion-parser.ts (short `$N` parameters) and src/interpreter/expansion.ts expandPart: report `$N` for the short form in NounsetError',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // The serializer (the engine writes a script back to text before it runs it) keeps the short form short.
      find: 'function bl(e){return e.spzBare&&!e.operation',
      replace: 'function bl(e){return e.spzShort&&!e.operation&&e.parameter.length===1?`$${e.parameter}`:e.spzBare&&!e.operation',
    },
    {
      find: 'if("@*#?$!-0123456789".includes(s))return{part:M.parameterExpansion(s),endIndex:r+1}',
      replace: 'if("@*#?$!-0123456789".includes(s))return{part:{...M.parameterExpansion(s),spzShort:!0},endIndex:r+1}',
    },
    {
      find: 'async function et(e,t,n=!1){if(t.type==="ParameterExpansion")return as(e,t,n);',
      replace: 'async function et(e,t,n=!1){if(t.type==="ParameterExpansion"){if(!t.spzShort)return as(e,t,n);try{return await as(e,t,n)}catch(x){if(x instanceof Ve&&x.varName===t.parameter){let b=`${t.parameter}: unbound variable`,w="$"+b;x.varName="$"+t.parameter,x.message=x.message.replace(b,w),x.stderr=x.stderr.replace(b,w)}throw x}}',
    },
  ],
};
