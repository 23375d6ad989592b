// bash's manual, "Shell Arithmetic": "Constants with a leading 0 are interpreted as octal numbers … numbers take the
// form [base#]n … If base# is omitted, then base 10 is used"; a digit the base does not have is an error ("value too
// great for base"), as any expression that does not evaluate. bash evaluates such an expression, with that error,
// where it takes an integer: a value assigned to a variable with the integer attribute (declare -i, local -i,
// NAME=value, NAME+=value), an indexed array's subscript (${a[08]}, a[08]=v), the operands of [[ … -eq … ]].
// The message is the arithmetic one (`NAME: line N: [declare: |local: |[[: ]TEXT: MESSAGE (error token is "…")`);
// a non-interactive shell ends with status 1 after it, but in [[ ]], where that comparison is false. just-bash stored 0,
// or read 08 as decimal 8, and went on silently. An empty or blank value is still 0, as in bash.
export default {
  title: 'an integer attribute, an array subscript or a [[ -eq ]] operand that is no valid number (08, 16#zz) is an arithmetic error',
  upstream:
    "src/interpreter/builtins/declare.ts evaluateIntegerValue and src/interpreter/assignment (integer attribute), src/interpreter/expansion (array subscripts), src/interpreter/conditionals.ts (integer operands): take only a plain decimal number without evaluating it, and rethrow the ArithmeticError with its message (the builtin's name first for declare, typeset and local; `[[: ` for a conditional) instead of storing 0 or reading the text as decimal",
  file: 'dist/bundle/index.js',
  edits: [
    {
      // declare, typeset and local (and their array elements, +=); one evaluator shared with NAME=value.
      find: 'async function Fu(e,t){try{let n=new Q,r=re(n,t),s=await Y(e,r.expression);return String(s)}catch{return"0"}}',
      replace:
        'async function __jbIntEval(e,x,text,label){if(!/\\S/.test(x))return"0";try{return _jbIntText(await Y(e,re(new Q,x).expression))}catch(_e){throw _e instanceof ce&&!_e._where&&(_e._where=!0,_e.stderr=_jbArithError(e,label,text.replace(/^\\s+/,""),_e)),_e}}async function Fu(e,t){return __jbIntEval(e,t,t,`${e.state.__jbBuiltin??"declare"}: `)}',
    },
    {
      // NAME=value and NAME+=value.
      find: 'if(Er(e,a))try{let f=new Q;if(s){let p=`(${e.state.env.get(a)||"0"}) + (${r})`,h=re(f,p);c=String(await Y(e,h.expression))}else{let d=re(f,r);c=String(await Y(e,d.expression))}}catch{c="0"}else{',
      replace: 'if(Er(e,a))c=await __jbIntEval(e,s?`(${e.state.env.get(a)||"0"}) + (${/\\S/.test(r)?r:"0"})`:r,r,"");else{',
    },
    {
      // ${a[SUBSCRIPT]}: only a plain decimal number is taken as it is.
      find: 'let c;if(/^-?\\d+$/.test(a))c=Number.parseInt(a,10);else try{let f=new Q,d=re(f,a);c=await Y(e,d.expression)}catch{let f=e.state.env.get(a);',
      replace: 'let c;if(/^-?(0|[1-9]\\d*)$/.test(a))c=Number.parseInt(a,10);else try{let f=new Q,d=re(f,a);c=await Y(e,d.expression)}catch(_e){if(_e instanceof ce)throw _e._where||(_e._where=!0,_e.stderr=_jbArithError(e,"",a.replace(/^\\s+/,""),_e)),_e;let f=e.state.env.get(a);',
    },
    {
      // a[SUBSCRIPT]=value.
      find: 'if(/^-?\\d+$/.test(r))s=Number.parseInt(r,10);else{try{let i=new Q,o=re(i,r);s=await Y(e,o.expression,!1)}catch(i){if(i instanceof G)throw i;if(i instanceof ce){let l=`bash: line ${e.state.currentLine}: ${n}: ${i.message}\n`;',
      replace: 'if(/^-?(0|[1-9]\\d*)$/.test(r))s=Number.parseInt(r,10);else{try{let i=new Q,o=re(i,r);s=await Y(e,o.expression,!1)}catch(i){if(i instanceof G)throw i;if(i instanceof ce){let l=/value too great for base/.test(i.message)?_jbArithError(e,"",n.replace(/^\\s+/,""),i):`bash: line ${e.state.currentLine}: ${n}: ${i.message}\n`;',
    },
    {
      // [[ A -eq B ]]: a literal is read as it is only when it is a valid number.
      find: 'async function ou(e,t){if(t=t.trim(),t==="")return 0;if(/^[+-]?(\\d+#[a-zA-Z0-9@_]+|0[xX][0-9a-fA-F]+|0[0-7]+|\\d+)$/.test(t))return au(t);try{let n=new Q,r=re(n,t);return await Y(e,r.expression)}catch{return au(t)}}',
      replace: 'async function ou(e,t){if(t=t.trim(),t==="")return 0;if(/^[+-]?(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\\d*)$/.test(t))return au(t);try{let n=new Q,r=re(n,t);return await Y(e,r.expression)}catch(_e){if(_e instanceof ce&&/value too great for base/.test(_e.message))throw e.state.expansionStderr=(e.state.expansionStderr||"")+__jbPlace(e,_jbArithError(e,"[[: ",t,_e)),{__jbIntFalse:!0};return au(t)}}',
    },
    {
      // The comparison with such an operand is false (the message is written); the rest of [[ … ]] goes on.
      find: 'if(ms(t.operator))return ys(t.operator,await ou(e,n),await ou(e,s));',
      replace: 'if(ms(t.operator))try{return ys(t.operator,await ou(e,n),await ou(e,s))}catch(_e){if(_e?.__jbIntFalse)return!1;throw _e}',
    },
  ],
};
