// The `time` keyword reports in the format `$TIMEFORMAT` gives: `%[p][l]R`, `U`, `S` (real, user and system
// seconds, p decimals, 3 by default and at most 3, truncated; `l` as MINUTESmSECONDSs), `%P` (CPU percentage), `%%`;
// a newline ends the report, and an empty TIMEFORMAT prints nothing. Unset, it is `\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS`.
// An unknown conversion ends the report with bash's message. `time -p` keeps POSIX's fixed form (the shell engine
// counts no user or system time: those read 0). just-bash always printed the default form, so `TIMEFORMAT=%R; time cmd` (the
// usual way to read a duration) gave three lines. Bash's manual, "Pipelines" and "Bash Variables" (TIMEFORMAT).
export default {
  title: 'time reports in the format $TIMEFORMAT gives (%R, %3lR, %U, %S, %P, %%; empty prints nothing)',
  upstream: 'src/interpreter/pipeline-execution.ts (timed pipeline): format the report from state.env TIMEFORMAT as bash print_formatted_time does, the default form when unset',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 't.timePosix?k=`real ${y.toFixed(2)}\nuser 0.00\nsys 0.00\n`:k=`\nreal\t${`${S}m${v.toFixed(3)}s`}\nuser\t0m0.000s\nsys\t0m0.000s\n`,i={...i,stderr:i.stderr+k}',
      replace:
        't.timePosix?k=`real ${y.toFixed(2)}\nuser 0.00\nsys 0.00\n`:k=((F,R)=>{if(F==="")return"";let o="",T=(x,p)=>(Math.floor(x*10**p+1e-9)/10**p).toFixed(p);' +
        'for(let j=0;j<F.length;j++){let c=F[j];if(c!=="%"){o+=c;continue}let m=/^%(\\d)?(l)?([RUSP])/.exec(F.slice(j));if(F[j+1]==="%"){o+="%";j++;continue}' +
        'if(!m)return __jbPlace(e,`bash: TIMEFORMAT: \\`${F[j+1]??""}\': invalid format character\\n`);j+=m[0].length-1;let p=m[1]===void 0?3:Math.min(3,Number(m[1])),x=m[3]==="R"?R:0;' +
        'if(m[3]==="P"){o+="0.00";continue}o+=m[2]?`${Math.floor(x/60)}m${T(x%60,p)}s`:T(x,p)}return o+"\\n"})(e.state.env.get("TIMEFORMAT")??"\\nreal\\t%3lR\\nuser\\t%3lU\\nsys\\t%3lS",y),i={...i,stderr:i.stderr+k}',
    },
  ],
};
