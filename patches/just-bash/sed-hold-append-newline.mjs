// GNU sed's `H` appends a newline and then the pattern space to the hold space, empty or not (GNU sed manual,
// "Commands"): `sed -n 'H;${x;p}'` starts with an empty line, the idiom scripts strip with `s/^\n//`. just-bash
// left out the newline while the hold space was empty.
export default {
  title: 'sed H appends a newline first, even to an empty hold space',
  upstream: 'src/commands/sed/executor.ts holdAppend: always `holdSpace += "\\n" + patternSpace`',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [{ find: 'e.holdSpace?e.holdSpace+=`\n${e.patternSpace}`:e.holdSpace=e.patternSpace,re(e.holdSpace', replace: 'e.holdSpace+=`\n${e.patternSpace}`,re(e.holdSpace' }],
};
