// shopt's own errors are the shell's (bash's builtin_error): `bash: line 1: shopt: x: invalid shell option name`, and
// the same for `shopt -o x` and for setting and unsetting at once. just-bash wrote them without `bash: `, so the error-message-place patch
// did not place them.
export default {
  title: "shopt's errors are placed as the shell's own (`bash: line N: shopt: …`)",
  upstream: 'src/interpreter/builtins/shopt.ts: prefix the invalid-name and set-and-unset messages with "bash: " like the other builtins',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'p=Pt(d,`shopt: ${w}: invalid shell option name`,p,r)', replace: 'p=Pt(d,`bash: shopt: ${w}: invalid shell option name`,p,r)' },
    { find: 'stderr:`shopt: cannot set and unset shell opt', replace: 'stderr:`bash: shopt: cannot set and unset shell opt' },
    { find: 'd=Pt(f,`shopt: ${m}: invalid option name`,d,o)', replace: 'd=Pt(f,`bash: shopt: ${m}: invalid option name`,d,o)' },
  ],
};
