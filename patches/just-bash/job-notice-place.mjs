// The notice a non-interactive bash prints when it reaps a job a signal killed (`bash: line 3:   782 Killed
// sleep 5`, jobs.ts deathNotice) carries the place of the command that reaped it, as the shell's other messages do.
// The placement only knew messages naming a builtin (`bash: wait: …`); a notice names the job's pid.
// bash's jobs.c notify_of_job_status (JDEAD).
export default {
  title: "a reaped job's death notice (`bash: line N:   PID Killed   CMD`) is placed like the shell's other messages",
  upstream: 'src/interpreter/errors placement (__jbPlaceResult, spritzer patch error-message-place): also place a stderr whose line reads `bash:  PID …`',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'Fn.has(/^bash: ([^:\\s]+): /.exec(v.stderr)?.[1])',
      replace: 'Fn.has(/^bash: ([^:\\s]+): /.exec(v.stderr)?.[1])||/^bash: +\\d+ /m.test(v.stderr)',
    },
  ],
};
