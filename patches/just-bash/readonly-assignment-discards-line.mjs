// Assigning to a readonly variable is not the end of a non-interactive bash (outside POSIX mode): an assignment
// statement (`r=2`, `r+=x`, `ra[0]=9`) prints `NAME: readonly variable` on the shell's stderr and abandons the rest of
// the line with status 1, as an expansion error does (bash's variables.c/execute_cmd.c: jump_to_top_level(DISCARD)).
// A builtin that would assign it only fails, status 1, and the script goes on: `declare`, `typeset` and `local`
// name themselves in the message (`bash: line 1: local: r: readonly variable`), `readonly`, `export`, `read` and
// `mapfile` do not. just-bash ended the whole shell at the first one.
export default {
  title: 'a readonly assignment abandons its line; a builtin on a readonly name only fails',
  upstream: 'src/interpreter/helpers/readonly.ts checkReadonlyError: throw the line-discarding expansion error instead of ExitError; src/interpreter/builtin-dispatch.ts: declare/typeset/local/readonly/export/read/mapfile turn it into their own status-1 message',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(Be(e,t)){let r=`${n}: ${t}: readonly variable\n`;throw new G(1,"",r)}return null}',
      replace:
        'if(Be(e,t)){let r=new Lt(t,"",__jbPlace(e,`bash: ${t}: readonly variable\n`));throw r.spzReadonly=t,e.state.spzRoRoute=!0,r}return null}' +
        'async function spzRoBuiltin(c,t,f){try{return await f()}catch(z){if(z?.spzReadonly===void 0)throw z;c.state.spzRoRoute=!1;return L("",`bash: ${["declare","typeset","local"].includes(t)?`${t}: `:""}${z.spzReadonly}: readonly variable\n`,1)}}',
    },
    // The message goes to the shell's stderr as it is then (after `exec 2>&1`, its stdout), not the command's.
    {
      find: 'case"SimpleCommand":return this.executeSimpleCommand(t,n);',
      replace: 'case"SimpleCommand":{this.ctx.state.spzRoRoute=!1;let v=await this.executeSimpleCommand(t,n);if(this.ctx.state.spzRoRoute&&(this.ctx.state.spzRoRoute=!1,v.stderr)){let w=await rn(this.ctx,{stdout:"",stderr:v.stderr,exitCode:0},[],new Map,new Map,new Map);v={...v,stdout:w.stdout+v.stdout,stderr:w.stderr}}return v}',
    },
    { find: 'return Bo(c,n)', replace: 'return spzRoBuiltin(c,t,()=>Bo(c,n))' },
    { find: 'return Uo(c,n)', replace: 'return spzRoBuiltin(c,t,()=>Uo(c,n))' },
    { find: 'return Do(c,n)', replace: 'return spzRoBuiltin(c,t,()=>Do(c,n))' },
    { find: 'return Io(c,n)', replace: 'return spzRoBuiltin(c,t,()=>Io(c,n))' },
    { find: 'return qo(c,n,s,a)', replace: 'return spzRoBuiltin(c,t,()=>qo(c,n,s,a))' },
    { find: 'return jo(c,n,s)', replace: 'return spzRoBuiltin(c,t,()=>jo(c,n,s))' },
  ],
};
