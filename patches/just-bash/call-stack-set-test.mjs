// FUNCNAME, BASH_SOURCE and BASH_LINENO count as set where they hold a frame: `${BASH_SOURCE[0]:-x}`,
// `${FUNCNAME[0]:-main}`, and `${BASH_SOURCE:-$0}` see the value `${BASH_SOURCE[0]}` prints
// (bash's manual, "Bash Variables"; "Shell Parameter Expansion": `:-` tests unset or null). just-bash read these
// arrays from the call stack but tested whether they were set in its variable table, where they never are, so every
// default applied. The frames come from call-stack-frames' helper.
export default {
  title: '${FUNCNAME[0]:-x} and the other call-stack arrays are set where they hold a frame',
  upstream: 'src/interpreter/expansion/variable.ts isVariableSet: answer FUNCNAME/BASH_SOURCE/BASH_LINENO (with or without a subscript) from the call stack',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'async function St(e,t){if(new Set(["?","$","#","_","-","0","PPID","UID","EUID","RANDOM","SECONDS","BASH_VERSION","!","BASHPID","LINENO"]).has(t))return!0;',
      replace: 'async function St(e,t){{let m=/^(FUNCNAME|BASH_LINENO|BASH_SOURCE)(?:\\[(.+)\\])?$/.exec(t);if(m){let s=__jbStack(e,m[1]);if(m[2]===void 0||m[2]==="@"||m[2]==="*")return s.length>0;let i=/^-?\\d+$/.test(m[2])?Number(m[2]):await Y(e,re(new Q,m[2]).expression);return s[i<0?i+s.length:i]!==void 0}}if(new Set(["?","$","#","_","-","0","PPID","UID","EUID","RANDOM","SECONDS","BASH_VERSION","!","BASHPID","LINENO"]).has(t))return!0;',
    },
  ],
};
