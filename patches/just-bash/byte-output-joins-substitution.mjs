// The other half of byte-output-joins: a command substitution reads its script's output as text. Joined output that
// holds bytes is now a bytes result, so `$(…)` decodes it: each valid UTF-8 sequence becomes its character and any
// other byte stays one character (bash, in a UTF-8 locale, counts an invalid byte as one character too).
export default {
  title: 'a command substitution decodes output that is bytes, valid UTF-8 sequences to characters',
  upstream: 'src/interpreter/expansion.ts expandWordPart CommandSubstitution: strip trailing newlines from the output decoded sequence by sequence (a bytes result that is not all UTF-8 keeps its other bytes as Latin-1 characters), not from result.stdout',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let m=p.stdout.replace(/\\n+$/,"");return Kt(m,e.limits.maxStringLength,"command substitution"),m}',
      replace:
        'let m=(p.stdoutKind==="bytes"?p.stdout.replace(/[\\xc2-\\xdf][\\x80-\\xbf]|[\\xe0-\\xef][\\x80-\\xbf]{2}|[\\xf0-\\xf4][\\x80-\\xbf]{3}/g,q=>{try{return new TextDecoder("utf-8",{fatal:!0}).decode(Uint8Array.from(q,z=>z.charCodeAt(0)))}catch{return q}}):p.stdout).replace(/\\n+$/,"");return Kt(m,e.limits.maxStringLength,"command substitution"),m}',
    },
  ],
};
