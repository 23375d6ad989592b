// A pipeline stage whose reader ends before reading all it was given dies of SIGPIPE (status 141: `seq 1 100000 |
// head -1` leaves `PIPESTATUS` at `141 0`, and `set -o pipefail` makes the pipeline fail with 141). The kernel's pipe
// holds 64 KiB and the reader takes a block at a time, so a writer left with more than that unread is always stopped;
// less is a race real bash loses or wins (left alone here: status 0). just-bash runs the stages one after the other,
// so a command that stops reading early (head) reports how much of its stdin it left (`stdinUnread`, bytes) and the
// pipeline gives the stage before it status 141 when that exceeds the pipe and a read block (65,536 + 8,192).
export default {
  title: 'a pipeline stage whose reader left more than a pipe of its output unread ends with 141 (SIGPIPE)',
  upstream: 'src/interpreter/pipeline-execution.ts executePipeline: when a stage\'s result says it left more than a pipe buffer of its stdin unread, the stage before it exits 128+SIGPIPE',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // The result a command's redirections are applied to keeps what it says of its stdin.
      find: 't.internalPipeStatusOverride&&(g.internalPipeStatusOverride=t.internalPipeStatusOverride)',
      replace: 't.internalPipeStatusOverride&&(g.internalPipeStatusOverride=t.internalPipeStatusOverride),t.stdinUnread&&(g.stdinUnread=t.stdinUnread)',
    },
    {
      find: 'a.push(N.exitCode),N.exitCode!==0&&(o=N.exitCode),',
      replace: 'a.push(N.exitCode),N.exitCode!==0&&(o=N.exitCode),g>0&&N.stdinUnread>73728&&a[g-1]===0&&(a[g-1]=141,o=a.reduce((x,q)=>q!==0?q:x,0)),',
    },
  ],
};
