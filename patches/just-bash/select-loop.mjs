// `select NAME [in WORDS]; do LIST; done`: prints the words as a numbered menu on stderr (in columns for
// COLUMNS, 80 by default, as bash lays them out), then the PS3 prompt (`#? `), reads a line into REPLY, sets NAME to
// the chosen word (empty when the line is not a number in range), runs LIST, and prompts again (the menu again
// after an empty line) until `break` or end of input (a newline on stdout, status 1). Bash's manual, "Conditional
// Constructs" (select); bash's execute_cmd.c (select_query, print_select_list). just-bash did not parse it.
export default {
  title: 'select loops: menu and PS3 prompt on stderr, REPLY and NAME from stdin',
  upstream: 'src/parser: parse "select" like "for NAME [in WORDS]" into a For node marked select; src/interpreter/control-flow.ts executeFor: for a select node run the select loop (menu layout of bash\'s print_select_list, read into REPLY, break/continue as in loops)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // The serializer writes it back as select.
      find: 'function Yd(e){let t;if(e.words===null)t=`for ${e.variable}`;else{let n=e.words.map(we).join(" ");t=`for ${e.variable} in ${n}`}',
      replace: 'function Yd(e){let t,_k=e.select?"select":"for";if(e.words===null)t=`${_k} ${e.variable}`;else{let n=e.words.map(we).join(" ");t=`${_k} ${e.variable} in ${n}`}',
    },
    {
      find: 'case E.FOR:return wi(this);',
      replace: 'case E.FOR:return wi(this);case E.SELECT:{this.current().type=E.FOR;let _s=wi(this);return _s.select=!0,_s}',
    },
    {
      find: 'async function yf(e,t){return nt(e,t.redirections,"",()=>Am(e,t))}',
      replace: [
        'function _jbSelectMenu(l,cols){let il=String(l.length).length,max=Math.max(...l.map(w=>w.length))+il+4,c=Math.floor(cols/max)||1,rows=Math.ceil(l.length/c);c=Math.ceil(l.length/rows),rows===1&&(rows=c,c=1);let fl=String(rows).length,out="";for(let row=0;row<rows;row++){let ind=row,pos=0;for(;;){let w=pos===0?fl:il;out+=String(ind+1).padStart(w)+") "+l[ind];let from=pos+l[ind].length+w+2,to=pos+max;if(ind+=rows,ind>=l.length)break;for(;from<to;)Math.floor(to/8)>Math.floor(from/8)?(out+="\\t",from+=8-from%8):(out+=" ",from++);pos+=max}out+="\\n"}return out}',
        // The menu and prompt go where the select's own redirections last send fd 2: with `2>&1` they join stdout in order.
        'async function _jbSelect(e,t){let last=[...t.redirections].reverse().find(r=>(r.fd??(r.operator.startsWith("<")?0:1))===2),toOut=last?.operator===">&"&&last.target?.parts?.map(p=>p.value).join("")==="1";return nt(e,t.redirections,"",async R=>{let g=e.state.groupStdin;R.stdin!==void 0&&(e.state.groupStdin=R.stdin);let n=new on(e),r=0;try{if(!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(t.variable))return D(`bash: \\`${t.variable}\': not a valid identifier\\n`);let i=[];if(t.words===null)i=(e.state.env.get("@")||"").split(" ").filter(Boolean);else for(let o of t.words){let a=await gt(e,o);De(i,a.values,e.limits.maxArrayElements,"select expansion")}if(i.length===0)return n.build(0);let cols=Number.parseInt(e.state.env.get("COLUMNS")??"",10)||80,show=!0,k=0;e.state.loopDepth++;try{for(;;){++k>e.limits.maxLoopIterations&&Xt(`select loop: too many iterations (${e.limits.maxLoopIterations}), increase executionLimits.maxLoopIterations`,"iterations",n.stdout,n.stderr);let p=(show?_jbSelectMenu(i,cols):"")+(e.state.env.get("PS3")??"#? ");toOut?n.append(p,""):n.append("",p);if((await qo(e,[],"")).exitCode!==0){n.append("\\n",""),r=1;break}let v=e.state.env.get("REPLY")??"";if(v===""){show=!0;continue}let x=/^\\s*[-+]?\\d+\\s*$/.test(v)?Number(v):0;e.state.env.set(t.variable,x>=1&&x<=i.length?i[x-1]:"");try{for(let a of t.body){let l=await e.executeStatement(a);n.append(l.stdout,l.stderr),r=l.exitCode}}catch(a){let l=vr(a,n.stdout,n.stderr,e.state.loopDepth);if(n.replace(l.stdout,l.stderr),l.action==="break")break;if(l.action==="error")return n.build(l.exitCode??1);if(l.action!=="continue")throw l.error}show=(e.state.env.get("REPLY")??"")===""}}finally{e.state.loopDepth--}return n.build(r)}finally{e.state.groupStdin=g}})}',
        'async function yf(e,t){if(t.select)return _jbSelect(e,t);return nt(e,t.redirections,"",()=>Am(e,t))}',
      ].join(''),
    },
  ],
};
