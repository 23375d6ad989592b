// "If the last character of the alias value is a blank, then the next command word following the alias is also
// checked for alias expansion" (bash's manual, "Aliases"): with `alias e='echo ' w=world`, `e w` runs `echo world`,
// and a chain continues while each expanded value ends in a blank (`e e w` is `echo echo world`: a later word may
// name an alias already used, as it is a new word). A quoted word is not expanded but does not end the chain
// (parse.y keeps its PST_ALEXPNEXT flag over it): `e "w" w` is `echo w hello…`. just-bash expanded the next word but then put its expansion in
// the command name's place (`world: command not found`) and refused an alias already used in the command.
export default {
  title: 'an alias ending in a blank alias-expands the next word, in place',
  upstream: 'src/interpreter/alias-expansion.ts expandAlias: when the value ends in a blank, expand the following words one by one in their own place among the arguments (a fresh expansion stack for each word), stopping at the first value without a trailing blank',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(c&&t.args.length>0){d={...d,args:[...d.args,...t.args]};let p=1;for(;r&&d.args.length>0;){let h=d.args[0];if(!vl(h))break;let m=kl(h),w=m?Pl(e,m):null;if(!w)break;if(p>=e.limits.maxCallDepth)throw new x(`alias expansion depth limit exceeded (${e.limits.maxCallDepth})`,"recursion");p++;let b={type:"SimpleCommand",name:h,args:d.args.slice(1),assignments:[],redirections:[]},g=Cl(e,b,n,!1);if(g===b||(d={...d,name:g.name,args:[...g.args]},!w.endsWith(" ")))break}}return d}',
      replace: 'if(c&&t.args.length>0){let q=d.args.length;d={...d,args:[...d.args,...t.args]};let p=1;for(;r&&q<d.args.length;){let h=d.args[q];if(!vl(h)){if(h.parts.some(P=>P.type==="SingleQuoted"||P.type==="DoubleQuoted"||P.type==="Escaped")){q++;continue}break}let m=kl(h),w=m?Pl(e,m):null;if(!w)break;if(p>=e.limits.maxCallDepth)throw new x(`alias expansion depth limit exceeded (${e.limits.maxCallDepth})`,"recursion");p++;let b={type:"SimpleCommand",name:h,args:[],assignments:[],redirections:[]},g=Cl(e,b,new Set,!1);if(g===b||g.spzEval||g.assignments.length>0||!g.name)break;let W=[g.name,...g.args];if(d={...d,args:[...d.args.slice(0,q),...W,...d.args.slice(q+1)],redirections:[...d.redirections,...g.redirections]},q+=W.length,!/[ \\t]$/.test(w))break}}return d}',
    },
    {
      find: 'return{type:"SimpleCommand",name:o,args:[l],assignments:t.assignments,redirections:t.redirections,line:t.line}}var up=',
      replace: 'return{type:"SimpleCommand",name:o,args:[l],assignments:t.assignments,redirections:t.redirections,line:t.line,spzEval:!0}}var up=',
    },
  ],
};
