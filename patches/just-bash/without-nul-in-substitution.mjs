// bash drops NUL bytes from a command substitution's output (a shell string cannot hold one) and warns once
// (`bash: line N: warning: command substitution: ignored null byte in input`), before the trailing newlines go;
// just-bash kept them, so ${#x} counted them and they reached the commands given the value.
export default {
  title: "command substitution drops NUL bytes with bash's warning",
  upstream: "src/interpreter/expansion (command substitution, $(<file)): remove NULs and warn",
  file: "dist/bundle/index.js",
  edits: [
    { find: "let m=(p.stdoutKind===\"bytes\"?/[\\x80-\\xff]/.test(p.stdout)?__jbShellText(Buffer.from(p.stdout,\"latin1\")):p.stdout:p.stdout).replace(/\\n+$/,\"\");return Kt(m,e.limits.maxStringLength,\"command substitution\"),m}", replace: "let m=p.stdoutKind===\"bytes\"?/[\\x80-\\xff]/.test(p.stdout)?__jbShellText(Buffer.from(p.stdout,\"latin1\")):p.stdout:p.stdout;m.includes(\"\\0\")&&(m=m.replace(/\\0/g,\"\"),e.state.expansionStderr=(e.state.expansionStderr||\"\")+`${__jbPlaceName(e)}: warning: command substitution: ignored null byte in input\\n`);m=m.replace(/\\n+$/,\"\");return Kt(m,e.limits.maxStringLength,\"command substitution\"),m}" },
    { find: "m=await e.fs.readFile(h);e.state.lastExitCode=0,e.state.env.set(\"?\",\"0\");let w=m.replace(/\\n+$/,\"\");", replace: "m=await e.fs.readFile(h);e.state.lastExitCode=0,e.state.env.set(\"?\",\"0\");m.includes(\"\\0\")&&(m=m.replace(/\\0/g,\"\"),e.state.expansionStderr=(e.state.expansionStderr||\"\")+`${__jbPlaceName(e)}: warning: command substitution: ignored null byte in input\\n`);let w=m.replace(/\\n+$/,\"\");" },
  ],
};
