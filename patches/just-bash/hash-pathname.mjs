// `hash -p PATHNAME NAME` makes NAME run PATHNAME (bash's manual, "Bourne Shell Builtins": "-p ... pathname is
// used as the full pathname of name"), `hash -d NAME` forgets it, and a table that `hash` filled survives until PATH
// changes. just-bash dropped the table on the next lookup when no command had been hashed since the last PATH (so
// `hash -p /bin/echo myecho; myecho x` was `command not found`), and ran a hashed path only when its file name was
// the command's own. (Until something is hashed there is no table: `hash -d NAME` then succeeds silently.)
export default {
  title: 'hash -p NAME runs the given pathname, and the table hash fills survives until PATH changes',
  upstream: 'src/interpreter/builtins/hash.ts: record state.hashPath (clearing a table from another PATH) before changing the table; command-resolution.ts: a hashed /bin or /usr/bin path runs the registered command of its file name',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function Wo(e,t){e.state.hashTable||(e.state.hashTable=new Map);',
      replace: 'function Wo(e,t){e.state.hashTable||(e.state.hashTable=new Map);e.state.hashPath!==void 0&&e.state.hashPath!==e.state.env.get("PATH")&&(e.state.hashTable.clear(),e.state.hashPath=e.state.env.get("PATH"));',
    },
    {
      find: 'let h=l[0];return e.state.hashTable.set(h,a),ne}',
      replace: 'let h=l[0];return e.state.hashPath=e.state.env.get("PATH"),e.state.hashTable.set(h,a),ne}',
    },
    {
      find: 'if(await e.fs.exists(b)){e.state.hashTable.set(h,b),m=!0;break}',
      replace: 'if(await e.fs.exists(b)){e.state.hashPath=e.state.env.get("PATH"),e.state.hashTable.set(h,b),m=!0;break}',
    },
    {
      // Before anything was hashed bash has no table, and `hash -d NAME` finds nothing to complain about.
      find: 'if(r){if(l.length===0)return D(`bash: hash: -d: option requires an argument',
      replace: 'if(r){if(l.length>0&&e.state.hashPath===void 0)return ne;if(l.length===0)return D(`bash: hash: -d: option requires an argument',
    },
    {
      find: 'let l=e.commands.get(t);if(l&&Ms(o,t))return{cmd:l,path:o};',
      replace: 'let _b=o.split("/").pop()||t,l=e.commands.get(_b);if(l&&Ms(o,_b))return{cmd:l,path:o};',
    },
  ],
};
