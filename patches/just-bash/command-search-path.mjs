// Command search as bash's manual gives it ("Command Search and Execution"): a builtin runs whatever PATH holds
// (`PATH=; echo hi` prints hi), and is never put in the hash table; an external command is found only in PATH's
// directories (`PATH=/nonexistent; ls` is `command not found`, and `command -v ls`, `type ls` find nothing); assigning
// PATH forgets the remembered locations (`ls; PATH=/x; ls` is not found). just-bash looked builtins it implements as
// commands (echo, printf, pwd, true, false, kill…) up in PATH like programs, and `command -v`/`type` answered
// /usr/bin/NAME for any command it has, whatever PATH held.
export default {
  title: 'builtins run without PATH; external commands, command -v and type follow PATH; assigning PATH resets the hash table',
  upstream: 'src/interpreter/command-resolution.ts resolveCommand: return a registered command that is a bash builtin before the hash table and PATH, drop hashed paths when PATH changed; src/interpreter/builtins/type.ts findFirstInPath and command -v: no /usr/bin fallback when the filesystem has /usr/bin; executeExternal: do not hash builtins',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(!n&&e.state.hashTable){let o=e.state.hashTable.get(t);',
      replace:
        '{let B=e.commands.get(t);if(B&&Fn.has(t))return{cmd:B,path:`/usr/bin/${t}`,builtin:!0}}e.state.hashTable&&e.state.hashPath!==e.state.env.get("PATH")&&e.state.hashTable.clear();if(!n&&e.state.hashTable){let o=e.state.hashTable.get(t);',
    },
    {
      find: 'if("script"in c)return t.includes("/")||(i.state.hashTable||(i.state.hashTable=new Map),i.state.hashTable.set(t,c.path)),await a(c.path,n,r);let{cmd:u,path:f}=c;t.includes("/")||(i.state.hashTable||(i.state.hashTable=new Map),i.state.hashTable.set(t,f));',
      replace:
        'let H=q=>{i.state.hashTable||(i.state.hashTable=new Map),i.state.hashPath!==i.state.env.get("PATH")&&i.state.hashTable.clear(),i.state.hashPath=i.state.env.get("PATH"),i.state.hashTable.set(t,q)};if("script"in c)return t.includes("/")||H(c.path),await a(c.path,n,r);let{cmd:u,path:f}=c;t.includes("/")||c.builtin||H(f);',
    },
    {
      // `type NAME`: a command just-bash has is /usr/bin/NAME only on a filesystem without /usr/bin.
      find: 'if(e.commands.has(t)){for(let s of r)if(s==="/usr/bin"||s==="/bin")return`${s}/${t}`;return`/usr/bin/${t}`}return null}',
      replace: 'if(e.commands.has(t)&&!await e.fs.exists("/usr/bin")){for(let s of r)if(s==="/usr/bin"||s==="/bin")return`${s}/${t}`;return`/usr/bin/${t}`}return null}',
    },
    {
      // `command -v NAME`: the same, and not found is status 1.
      find: 'f||(f=`/usr/bin/${a}`),r?s+=`${a} is ${f}\n`:s+=`${f}\n`}else r&&(i+=`${a}: not found\n`),o=1}',
      replace: '!f&&!await e.fs.exists("/usr/bin")&&(f=`/usr/bin/${a}`),f?r?s+=`${a} is ${f}\n`:s+=`${f}\n`:(r&&(i+=`${a}: not found\n`),o=1)}else r&&(i+=`${a}: not found\n`),o=1}',
    },
  ],
};
