// bash's listings show the variables bash keeps for itself, as bash 5.2 lists them (variables.c, declare.def,
// set.def): `set` and `declare` with no arguments (`NAME=value`, then the functions, which `set -o posix` leaves out)
// show BASH_ALIASES and BASH_CMDS (associative: the aliases, the hashed commands), BASH_ARGC, BASH_ARGV,
// BASH_LINENO, BASH_SOURCE, DIRSTACK (the current directory, then the `pushd` stack), FUNCNAME in a function,
// EUID, PPID, UID (integer, read-only) and `_`; `declare -p` shows them too, and the dynamic ones
// (BASHPID, BASH_ARGV0, BASH_COMMAND, BASH_SUBSHELL, COMP_WORDBREAKS, EPOCHREALTIME, EPOCHSECONDS, HISTCMD, LINENO,
// RANDOM, SECONDS, SRANDOM, FUNCNAME outside a function) by name and attributes only, as bash has no value stored
// for them; BASH_EXECUTION_STRING is listed. An attribute filter with no names lists the variables that have it
// (`declare -i`, `-l`, `-u`, `-a`, `-A`, `-r`, `-x`, with or without `-p`); `declare -x` shows an exported variable
// that is unset (`declare -x OLDPWD`), and `readonly -p` shows EUID, PPID and UID. Under `set -o posix`,
// `export -p` and `readonly -p` print `export NAME="v"` / `readonly NAME="v"` (`-a`/`-A` kept for arrays).
// `declare -p NAME` of a dynamic variable prints its value (SECONDS, read, becomes an integer: bash's get_seconds);
// BASH_ARGC at the top level is `([0]="0")`.
// just-bash listed none of them, showed its aliases as BASH_ALIAS_NAME variables and `%umask`/`?` as variables,
// printed every variable in `set`'s form for `declare -i`/`-l`/`-u`, and left the functions out of `set`.
// `${DIRSTACK[@]}` gives the stack too, and `$_` in a pipeline's stages is what it was before the pipeline.
export default {
  title: "set, declare, readonly and export list bash's own variables, and declare's attribute filters list only theirs",
  upstream: 'src/interpreter/builtins/set.ts, declare-print.ts, export.ts, readonly.ts: list the shell\'s special variables (a table of name, attributes and value source) with the user\'s, skip internal names, filter by -i/-l/-u, posix-mode export/readonly forms; set/declare with no arguments list functions after variables',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // The table of bash's own variables the interpreter does not keep in its variable map.
      find: 'function spzDeclLine(e,i){',
      replace: `function spzOwnVars(e) {
  const st = e.state, own = new Map();
  const held = (n) => st.env.has(n) || st.arrays?.has(n) || st.associativeArrays?.has(n);
  const list = (n, flags, values) => own.set(n, { flags, kind: 'a', els: values === null ? null : values.map((v, i) => [i, String(v)]) });
  const inFunction = (st.funcNameStack?.length ?? 0) > 0;
  own.set('BASH_ALIASES', { flags: '-A', kind: 'A', els: [...st.env.keys()].filter((k) => k.startsWith('BASH_ALIAS_')).sort().map((k) => [k.slice(11), st.env.get(k)]) });
  list('BASH_ARGC', '-a', []);
  list('BASH_ARGV', '-a', []);
  own.set('BASH_CMDS', { flags: '-A', kind: 'A', els: [...(st.hashTable ?? new Map())].map(([k, v]) => [k, String(v)]) });
  list('BASH_LINENO', '-a', __jbStack(e, 'BASH_LINENO'));
  list('BASH_SOURCE', '-a', __jbStack(e, 'BASH_SOURCE'));
  list('DIRSTACK', '-a', [st.cwd, ..._o(e)]);
  list('FUNCNAME', '-a', inFunction ? __jbStack(e, 'FUNCNAME') : null);
  for (const [n, v] of [['EUID', st.virtualUid], ['PPID', st.virtualPpid], ['UID', st.virtualUid]]) if (v !== undefined) own.set(n, { flags: '-ir', kind: 's', v: String(v) });
  if (st.lastArg !== undefined) own.set('_', { flags: '--', kind: 's', v: st.lastArg });
  for (const n of [...own.keys()]) if (held(n)) own.delete(n);
  for (const [n, flags] of [['BASHPID', '-i'], ['BASH_ARGV0', '--'], ['BASH_COMMAND', '--'], ['BASH_SUBSHELL', '--'], ['COMP_WORDBREAKS', '--'], ['EPOCHREALTIME', '--'], ['EPOCHSECONDS', '--'], ['HISTCMD', '-i'], ['LINENO', '--'], ['RANDOM', '-i'], ['SECONDS', '--'], ['SRANDOM', '-i']])
    own.set(n, { flags, kind: 's', v: st.env.get(n), dynamic: true });
  return own;
}
function spzOwnBody(o) {
  if (o.kind === 's') return o.v === undefined ? '' : '=' + wr(o.v);
  if (o.els === null) return '';
  return o.kind === 'A' ? '=(' + o.els.map(([k, v]) => '[' + spzDeclKey(k) + ']=' + sn(v) + ' ').join('') + ')' : '=(' + o.els.map(([k, v]) => '[' + k + ']=' + sn(v)).join(' ') + ')';
}
function spzOwnDecl(n, o) { return 'declare ' + o.flags + ' ' + n + spzOwnBody(o) + '\\n'; }
function spzOwnSet(n, o) {
  if (o.dynamic || o.els === null || (o.kind === 's' && o.v === undefined)) return undefined;
  return o.kind === 's' ? n + '=' + Ae(o.v) : n + spzOwnBody(o);
}
function spzListedName(n) { return /^[a-zA-Z_][a-zA-Z0-9_]*$/.test(n) && !/^__spritzer_|^BASH_ALIAS_|^__GETOPTS_CHARINDEX$/.test(n); }
function spzPosixList(e, word, line) {
  if (!e.state.options.posix || !line) return line;
  return line.replace(/^declare -(\\S+) /, (_m, f) => word + ' ' + (f.includes('a') ? '-a ' : f.includes('A') ? '-A ' : ''));
}
function spzDeclLine(e,i){`,
    },
    {
      // set: bash's own variables, no internal names; then the functions (not under set -o posix).
      find: 'function Qo(e,t){if(t.includes("--help"))return ee(Sr);if(t.length===0){let i=Jh(e),o=em(e),a=[];for(let[u,f]of e.state.env)/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(u)&&!/^__spritzer_/.test(u)&&(i.has(u)||o.has(u)||a.push([u,f]));let l=[...a.map(([u,f])=>({kind:"scalar",name:u,value:f})),',
      replace: 'function Qo(e,t){if(t.includes("--help"))return ee(Sr);if(t.length===0){let i=Jh(e),o=em(e),a=[];for(let[u,f]of e.state.env)spzListedName(u)&&(i.has(u)||o.has(u)||a.push([u,f]));let l=[...a.map(([u,f])=>({kind:"scalar",name:u,value:f})),...[...spzOwnVars(e)].map(([u,f])=>({kind:"own",name:u,line:spzOwnSet(u,f)})).filter(u=>u.line!==void 0&&!a.some(([n])=>n===u.name)),',
    },
    {
      find: 'for(let u of l)e.executionScope.consumeWork(1,"set variable listing"),u.kind==="scalar"?',
      replace: 'for(let u of l)e.executionScope.consumeWork(1,"set variable listing"),u.kind==="own"?c.append(u.line):u.kind==="scalar"?',
    },
    {
      find: ':Yh(e,c,u.name),c.append(`\n`);return ee(c.build())}',
      replace: ':Yh(e,c,u.name),c.append(`\n`);if(!e.state.options.posix)for(let u of Array.from(e.state.functions.keys()).sort())c.append(__jbFnText(u,e.state.functions.get(u)));return ee(c.build())}',
    },
    {
      // declare / typeset with no arguments list as set does.
      find: 'function Mu(e){',
      replace: 'function Mu(e){return Qo(e,[]);',
    },
    {
      // declare -p and the attribute filters: every listed name, bash's own variables, exported or read-only
      // variables that are unset.
      find: 'for(let f of e.state.env.keys())f.startsWith("BASH_")||/^__spritzer_/.test(f)||c.add(f);',
      replace: 'for(let f of e.state.env.keys())spzListedName(f)&&c.add(f);for(let f of[...e.state.exportedVars??[],...e.state.readonlyVars??[],...e.state.declaredVars??[]])spzListedName(f)&&c.add(f);let _ov=spzOwnVars(e);for(let f of _ov.keys())c.add(f);',
    },
    {
      find: 'if(a&&(o&&!p||i&&!m||n&&!e.state.exportedVars?.has(f)||r&&!e.state.readonlyVars?.has(f)||s&&!ue(e,f)))continue;l+=spzDeclLine(e,f)??"";continue;',
      replace:
        'if(_ov.has(f)){let _w=_ov.get(f),_g=_w.flags;if(a&&(o&&!_g.includes("A")||i&&!_g.includes("a")||n&&!_g.includes("x")||r&&!_g.includes("r")||s)||t.filterInteger&&!_g.includes("i")||t.filterLower||t.filterUpper)continue;l+=spzOwnDecl(f,_w);continue}' +
        'if(a&&(o&&!p||i&&!m||n&&!e.state.exportedVars?.has(f)||r&&!e.state.readonlyVars?.has(f)||s&&!ue(e,f))||t.filterInteger&&!e.state.integerVars?.has(f)||t.filterLower&&!e.state.lowercaseVars?.has(f)||t.filterUpper&&!e.state.uppercaseVars?.has(f))continue;l+=spzDeclLine(e,f)??"";continue;',
    },
    {
      find: 'if(a&&g.length===0)return _u(e,{filterExport:o,filterReadonly:i,filterNameref:l,filterIndexedArray:r,filterAssocArray:s});if(g.length===0&&(o||i||l))return _u(e,{filterExport:o,filterReadonly:i,filterNameref:l,filterIndexedArray:r,filterAssocArray:s});',
      replace: 'if(g.length===0&&(a||o||i||l||r||s||d||p||h))return _u(e,{filterExport:o,filterReadonly:i,filterNameref:l,filterIndexedArray:r,filterAssocArray:s,filterInteger:d,filterLower:p,filterUpper:h});',
    },
    {
      // declare -p NAME of one of them.
      find: 'function Iu(e,t){let n="",r="",s=!1;for(let i of t){let o=Du(e,i),spz=spzDeclLine(e,i);',
      replace:
        'async function Iu(e,t){let n="",r="",s=!1,_ov=spzOwnVars(e);for(let i of t){if(_ov.has(i)){let _w=_ov.get(i);if(_w.dynamic)_w={..._w,v:await ie(e,i),flags:i==="SECONDS"?"-i":_w.flags};else if(i==="BASH_ARGC"&&!(e.state.funcNameStack?.length>0))_w={..._w,els:[[0,"0"]]};n+=spzOwnDecl(i,_w);continue}let o=Du(e,i),spz=spzDeclLine(e,i);',
    },
    {
      // export -p and readonly -p under set -o posix; readonly -p lists EUID, PPID and UID.
      find: 'for(let c of l){o+=spzDeclLine(e,c)??"";continue;',
      replace: 'for(let c of l){o+=spzPosixList(e,"export",spzDeclLine(e,c)??"");continue;',
    },
    {
      find: 'let a="",l=Array.from(e.state.readonlyVars||[]).sort();for(let c of l){a+=spzDeclLine(e,c)??"";continue;',
      replace: 'let a="",l=Array.from(new Set([...e.state.readonlyVars||[],...[...spzOwnVars(e)].filter(([,w])=>w.flags.includes("r")).map(([c])=>c)])).sort();for(let c of l){a+=spzPosixList(e,"readonly",spzDeclLine(e,c)??"");continue;',
    },
    {
      // \`_\`, listed with the rest, holds in each stage of a pipeline what it held before the pipeline (each stage is a
      // subshell of the shell that ran the previous command; just-bash emptied it).
      find: 'u&&(e.state.lastArg="",e.state.stdinClosed=v?Z1:!1,',
      replace: 'u&&(e.state.lastArg=f,e.state.stdinClosed=v?Z1:!1,',
    },
    {
      // ${DIRSTACK[@]}: the current directory, then the stack.
      find: 'function K(e,t){t=__jbArrName(e,t);return t==="FUNCNAME"||t==="BASH_LINENO"||t==="BASH_SOURCE"?__jbStack(e,t).map((i,o)=>[o,i]):',
      replace: 'function K(e,t){t=__jbArrName(e,t);if(t==="DIRSTACK"&&!e.state.arrays?.has(t)&&!e.state.env.has(t))return[e.state.cwd,..._o(e)].map((i,o)=>[o,i]);return t==="FUNCNAME"||t==="BASH_LINENO"||t==="BASH_SOURCE"?__jbStack(e,t).map((i,o)=>[o,i]):',
    },
  ],
};
