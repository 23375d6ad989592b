// BASH_ARGC and BASH_ARGV under `shopt -s extdebug` (bash's manual, "Bash Variables"): in a function, BASH_ARGV holds
// the arguments of every call on the stack, the current call's last argument first, and BASH_ARGC how many each call
// has, the current call first, then the top level's 0 (`f a b c` sees `3 0` and `c b a`). The interpreter keeps each
// call's arguments while it runs, and sets both arrays when extdebug is on at a call or a return. just-bash left both
// empty.
export default {
  title: 'BASH_ARGC and BASH_ARGV hold the call stack arguments under extdebug',
  upstream: 'src/interpreter/functions.ts callFunction: push the call\'s arguments (state.argvStack) and set BASH_ARGC/BASH_ARGV when extdebug is on; pop them on return',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'async function Os(e,t,n,r="",s,i=!1){',
      replace:
        'function _jbArgvSync(e){if(!e.state.shoptOptions?.extdebug)return;let S=e.state.argvStack??[],mk=v=>({kind:"indexed",elements:new Map(v.map((x,i)=>[String(i),x]))});e.state.arrays??=new Map,e.state.arrays.set("BASH_ARGC",mk([...S.map(a=>String(a.length)),"0"])),e.state.arrays.set("BASH_ARGV",mk(S.flatMap(a=>[...a].reverse())))}' +
        'async function Os(e,t,n,r="",s,i=!1){',
    },
    { find: 'e.state.funcNameStack.unshift(t.name),', replace: 'e.state.funcNameStack.unshift(t.name),(e.state.argvStack??=[]).unshift([...n]),_jbArgvSync(e),' },
    { find: 'e.state.funcNameStack?.shift(),', replace: 'e.state.funcNameStack?.shift(),e.state.argvStack?.shift(),_jbArgvSync(e),' },
  ],
};
