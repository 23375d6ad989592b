// jq 1.6 treats an error whose value is null as no error to catch: `try error(null) catch .` outputs nothing (the
// catch body does not run), so `[.[] | try (if . == 2 then error(null) else . end) catch "c"]` is [1,3]. just-bash
// ran the catch body on null. jq 1.6 src/execute.c (FORK_OPT: an invalid value without a message backtracks).
export default {
  title: 'jq try/catch: an error(null) is caught without running the catch body (jq 1.6)',
  upstream: 'src/commands/query-engine evaluate Try: when the caught error value is null, yield the partial results only',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'if(n.catch){let s=r instanceof ie?r.value:r instanceof Error?r.message:String(r);return[...JK,...d(s,n.catch,t)]}return JK}',
      replace: 'if(n.catch){let s=r instanceof ie?r.value:r instanceof Error?r.message:String(r);if(r instanceof ie&&s===null)return JK;return[...JK,...d(s,n.catch,t)]}return JK}',
    },
  ],
};
