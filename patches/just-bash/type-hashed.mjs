// `type NAME` says `NAME is hashed (PATH)` for a command in the hash table (one run before, or `hash -p`), as bash's
// type builtin does before it searches PATH; `type -t` says `file` and `type -p` prints the hashed path. just-bash
// searched PATH only, so `ls; type ls` said `ls is /usr/bin/ls` and a `hash -p` name was `not found`.
export default {
  title: 'type reports a hashed command as hashed',
  upstream: 'src/interpreter/builtins/type.ts: before the PATH search, a name in state.hashTable (for the current PATH) is "NAME is hashed (PATH)"',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'else if(!w){let k=await n(m);k&&(i?u+=`${k}\n`:s?u+=`file\n`:u+=',
      replace: 'else if(!w){let _H=!m.includes("/")&&e.state.hashPath===e.state.env.get("PATH")?e.state.hashTable?.get(m):void 0,k=_H??await n(m);k&&(i?u+=`${k}\n`:s?u+=`file\n`:_H?u+=`${m} is hashed (${_H})\n`:u+=',
    },
  ],
};
