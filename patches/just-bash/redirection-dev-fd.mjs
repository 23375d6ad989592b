// `echo x > /dev/fd/2`, `ls 2>/dev/fd/1 | cat`, `exec 3>/dev/fd/2`, `cat < /dev/fd/0`: on Linux /dev/fd/N (and
// /proc/self/fd/N) names the shell's open descriptor N, so the redirection reaches whatever N points at (a pipe, the
// terminal, a file) as `>&N` / `<&N` would. just-bash knew only /dev/stdout and /dev/stderr, and looked /dev/fd/N up
// as a file of its own tree ("No such file or directory"). A plain `>`, `>>`, `>|` or `<` whose target names an open
// descriptor this way is now that duplication; a descriptor that is not open is still the missing file bash reports.
// An output redirection through it to a descriptor open on a regular file opens that file anew, as Linux does (the
// link leads to the file, which open(2) opens with its own offset): `>` truncates it (`exec 3>f; echo a >&3; echo b
// > /dev/fd/3` leaves `b`), `>>` appends.
// @deviation Only descriptors the shell holds (`exec 3>f`, `exec >f`) are reopened so; a compound command's own
// redirection (`{ …; echo b > /dev/stdout; } > f`) is still duplicated. The old descriptor's later writes land at
// the file's end, not at its own offset (Linux can leave a hole of NULs there). An input `/dev/fd/N` is duplicated.
export default {
  title: 'a redirection to /dev/fd/N duplicates descriptor N',
  upstream: 'src/interpreter/redirections.ts prepareRedirections and applyRedirections: a `>`/`>>`/`>|`/`<` target /dev/fd/N, /proc/self/fd/N (or /dev/stdin, /dev/stdout, /dev/stderr) whose descriptor is open is handled as the duplication `>&N` / `<&N`',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // The rewrite, shared by the preparation (which checks N is open) and the application (which follows it).
      find: 'async function rn(e,t,n,r,s=new Map',
      replace:
        'function __jbDevFdOp(o){return o===">"||o===">>"||o===">|"?">&":o==="<"?"<&":null}' +
        'async function __jbDevFd(e,y,v,b){let o=__jbDevFdOp(y.operator);if(!o)return null;let m=/^\\/(?:dev\\/fd|proc\\/self\\/fd)\\/(\\d+)$/.exec(v),n=m?Number(m[1]):o==="<&"?{"/dev/stdin":0}[v]:{"/dev/stdout":1,"/dev/stderr":2}[v];' +
        'let E=n===void 0||!Number.isSafeInteger(n)?null:b(n,o==="<&");if(!E)return null;' +
        // an output descriptor open on a regular file: the file itself, opened anew by the redirection as written
        'let P=o===">&"&&E.kind==="entry"&&(E.entry.kind==="output"||E.entry.kind==="readwrite")?E.entry.path:void 0;' +
        'if(P){let t=await e.fs.stat(P).catch(()=>null);if(t?.isFile&&t.device!==!0)return{node:y,target:P,dup:!1}}' +
        'return{node:{...y,operator:o},target:String(n),dup:!0}}' +
        'function __jbDevFdNode(v,dup){let o=dup?__jbDevFdOp(v.operator):null;return o?{...v,operator:o}:v}' +
        'async function rn(e,t,n,r,s=new Map',
    },
    {
      // preparation: the target, once expanded, becomes the descriptor it names
      find: 'v=A.target}if(s.set(g,v),v.includes("\\0"))',
      replace: 'v=A.target;let Z=await __jbDevFd(e,y,v,b);Z&&(y=Z.node,v=Z.target,k=Z.dup)}if(s.set(g,v),v.includes("\\0"))',
    },
    {
      // application: a plain redirection the preparation duplicated (it recorded the duplicated source) routes as one
      find: 'for(let S=0;S<n.length;S++){let v=n[S];if(v.target.type==="HereDoc"||v.fdVariable)continue;let k=r.get(S);',
      replace: 'for(let S=0;S<n.length;S++){let v=__jbDevFdNode(n[S],s.has(S));if(v.target.type==="HereDoc"||v.fdVariable)continue;let k=r.get(S);',
    },
  ],
};
