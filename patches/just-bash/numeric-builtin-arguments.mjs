// The count or status that shift, break, continue, return and exit take is read as bash's common.c reads it
// (get_numeric_arg, get_exitstat: legal_number, so blanks around it and a sign are fine, `1x` is not):
// - a second argument is `NAME: too many arguments` and ends the shell with status 1 (jump_to_top_level);
// - a word that is not a number: shift says `shift: x: numeric argument required`, status 1; return says it and
//   returns 2 from the function; break/continue end the shell with 128 (as just-bash already did);
// - `shift N` beyond `$#` fails with 1, silently unless `shopt -s shift_verbose` (`shift: 3: shift count out of
//   range`, `shift: shift count out of range` without N); a negative N always says so;
// - `break 0` / `continue -1`: `break: 0: loop count out of range`, status 1, out of every enclosing loop;
// - break/continue outside a loop: `break: only meaningful in a `for', `while', or `until' loop`, status 0;
//   return outside a function or sourced file: status 2.
// Bash's manual, "Bourne Shell Builtins", and shift.def/break.def/return.def/exit.def. just-bash printed nothing
// for some (shift beyond $# always spoke, break outside a loop never), ignored extra arguments of exit, ended the
// shell on `break 0`, and went on running a function after `return x`.
export default {
  title: 'shift/break/continue/return/exit read their numeric argument as bash does, with bash\'s errors',
  upstream: 'src/interpreter/builtins/{shift,break,continue,return,exit}.ts: parse with legal_number; too many arguments ends the shell with 1; shift range errors only under shift_verbose (always for a negative count); break/continue 0 is "loop count out of range" leaving all loops; outside a loop a message and 0; return outside a function 2',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // break, through the loop-count helper below.
      find: 'function Qi(e,t){if(e.state.loopDepth===0){if(e.state.parentHasLoopContext)throw new Mt;return ne}',
      replace: 'function _jbLoopCount(e,t,w,C){if(e.state.loopDepth===0){if(e.state.parentHasLoopContext)throw new Mt;return L("",`bash: ${w}: only meaningful in a \\`for\', \\`while\', or \\`until\' loop\\n`,0)}if(t.length>1)throw new G(1,"",`bash: ${w}: too many arguments\\n`);let n=1;if(t.length>0){if(!/^\\s*[-+]?\\d+\\s*$/.test(t[0]))throw new G(128,"",`bash: ${w}: ${t[0]}: numeric argument required\\n`);n=Number.parseInt(t[0],10);if(n<1)throw Object.assign(new He(e.state.loopDepth,"",`bash: ${w}: ${t[0]}: loop count out of range\\n`),{spzStatus:1})}throw new C(n)}' +
        'function Qi(e,t){return _jbLoopCount(e,t,"break",He);',
    },
    {
      find: 'function xo(e,t){if(e.state.loopDepth===0){if(e.state.parentHasLoopContext)throw new Mt;return ne}',
      replace: 'function xo(e,t){return _jbLoopCount(e,t,"continue",Qe);',
    },
    {
      find: 'if(r===""||Number.isNaN(s)||!/^-?\\d+$/.test(r))return D(`bash: return: ${r}: numeric argument required\n`,2);',
      replace: 'if(t.length>1)throw new G(1,"",`bash: return: too many arguments\\n`);if(!/^\\s*[-+]?\\d+\\s*$/.test(r))throw new Te(2,"",`bash: return: ${r}: numeric argument required\\n`);',
    },
    {
      find: 'return D("bash: return: can only `return\' from a function or sourced script\\n");',
      replace: 'return D("bash: return: can only `return\' from a function or sourced script\\n",2);',
    },
    {
      find: 'let s=t[0];if(s===""||!/^-?\\d+$/.test(s))r=`bash: exit: ${s}: numeric argument required\n`,n=2;',
      replace: 'let s=t[0];if(!/^\\s*[-+]?\\d+\\s*$/.test(s))r=`bash: exit: ${s}: numeric argument required\\n`,n=2;else if(t.length>1)r=`bash: exit: too many arguments\\n`,n=1;',
    },
    {
      find: 'function Ko(e,t){let n=1;if(t.length>0){let o=Number.parseInt(t[0],10);if(Number.isNaN(o)||o<0){',
      replace: 'function Ko(e,t){let n=1;if(t.length>1)throw new G(1,"",`bash: shift: too many arguments\\n`);if(t.length>0){let o=Number.parseInt(t[0],10);if(!/^\\s*[-+]?\\d+\\s*$/.test(t[0])){',
    },
    {
      find: 'if(n>r){let o=`bash: shift: shift count out of range\n`;if(e.state.options.posix)throw new st(1,"",o);return D(o)}',
      replace: 'if(n<0||n>r){let o=n<0||e.state.shoptOptions?.shift_verbose?`bash: shift: ${t.length>0?`${n}: `:""}shift count out of range\\n`:"";if(e.state.options.posix)throw new st(1,"",o);return L("",o,1)}',
    },
    {
      // The loops leave with status 1 after a count out of range (the error's spzStatus).
      find: '{action:"break",stdout:t,stderr:n}',
      replace: 'e.spzStatus?{action:"error",exitCode:e.spzStatus,stdout:t,stderr:n}:{action:"break",stdout:t,stderr:n}',
    },
  ],
};
