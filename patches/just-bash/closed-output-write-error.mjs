// Output to a descriptor closed by the command's own redirection (`echo a >&-`, `ls 2>&-`) fails as it does for a
// descriptor closed by `exec >&-`: writing stdout there is a write error (`bash: echo: write error: Bad file
// descriptor`, status 1), and messages to a closed stderr are lost. just-bash discarded the output silently with
// status 0, as if it had gone to /dev/null.
export default {
  title: 'output to a stdout closed with >&- is a write error, not discarded',
  upstream: 'src/interpreter/redirections.ts applyRedirections (>& and <& with target "-"): route the closed standard descriptor to the invalid-output target, as a descriptor closed by exec is, not to discard',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(k==="-"){A===1?h={kind:"discard"}:m={kind:"discard"};break}',
      replace: 'if(k==="-"){A===1?h={kind:"invalid-output",fd:1}:m={kind:"invalid-output",fd:2};break}',
    },
  ],
};
