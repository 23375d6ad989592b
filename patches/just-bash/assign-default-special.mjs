// `${1:=word}`, `${1=word}`, `${@:=word}`, `${*:=word}` (any positional or special parameter) when the default
// would be assigned: bash cannot assign to such a parameter, reports `$1: cannot assign in this way` and, as for
// any expansion error in a non-interactive shell, ends the script with status 1 (subst.c, parameter_brace_expand_rhs:
// "cannot assign in this way"). When the parameter is set (and non-null for `:=`) the expansion is its value, as
// ever. just-bash assigned a shell variable named `1` and went on.
export default {
  title: '${N:=word} on a positional or special parameter is a fatal error',
  upstream: 'src/interpreter/expansion/parameter-ops.ts (AssignDefault): when the default applies and the parameter is not a variable name or array element, throw a fatal expansion error `$NAME: cannot assign in this way` (status 1)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(e.coverage?.hit("bash:expansion:assign_default"),(r.isUnset||n.checkEmpty&&r.isEmpty)&&n.word){',
      replace:
        'if(e.coverage?.hit("bash:expansion:assign_default"),(r.isUnset||n.checkEmpty&&r.isEmpty)&&n.word&&!/^[a-zA-Z_][a-zA-Z0-9_]*(\\[.+\\])?$/s.test(t))throw Object.assign(new G(1,"",`bash: $${t}: cannot assign in this way\\n`),{spzShellStatus:1});' +
        'if((r.isUnset||n.checkEmpty&&r.isEmpty)&&n.word){',
    },
  ],
};
