// A `#!` script whose interpreter does not exist cannot run: execve(2) fails with ENOENT and bash 5.2 says
// `bash: line 1: ./t.sh: cannot execute: required file not found`, status 127 (execute_cmd.c, shell_execve). just-bash
// ran every script it found as a bash script, whatever its `#!` line named, so `#!/no/such/interp` scripts ran.
export default {
  title: 'a script whose #! interpreter is missing fails as execve does (127, "cannot execute: required file not found")',
  upstream: 'src/interpreter/command-resolution.ts runCommand: before running a script file, check that the absolute interpreter path of its #! line exists; else the ENOENT message bash 5.2 gives, status 127',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if("script"in c)return t.includes("/")||H(c.path),await a(c.path,n,r);',
      replace:
        'if("script"in c){let Zh=await i.fs.readFile(c.path).catch(()=>"");if(Zh.startsWith("#!")){let Zi=Zh.slice(2,Zh.indexOf("\\n")<0?void 0:Zh.indexOf("\\n")).trim().split(/\\s+/)[0]??"";' +
        'if(Zi.startsWith("/")&&!await i.fs.exists(Zi))return D(__jbPlace(i,`bash: ${t.includes("/")?t:c.path}: cannot execute: required file not found\\n`),127)}' +
        'return t.includes("/")||H(c.path),await a(c.path,n,r)}',
    },
  ],
};
