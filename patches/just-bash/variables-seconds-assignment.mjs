// Assigning SECONDS sets what it counts from (bash(1) "Shell Variables": "the value … is the number of seconds since
// the assignment plus the value assigned"): `SECONDS=100; echo $SECONDS` prints 100, `SECONDS=0` restarts a timer.
// just-bash kept counting from the shell's start. The assignment lands in the variable table; the next expansion
// takes it as the new base (its integer value, 0 for a non-number) and counts on from there. bash counts whole
// seconds of the clock (variables.c get_seconds: the difference of two `tv_sec`), so a count started at x.9 s reads 1
// 0.2 s later.
export default {
  title: 'an assignment to SECONDS sets the count it goes on from; the count is of whole clock seconds',
  upstream: 'src/interpreter/expansion/variable.ts (SECONDS): an assigned value is the base, counted on from the time of the assignment',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'case"SECONDS":return String(Math.floor((Date.now()-e.state.startTime)/1e3));',
      replace:
        'case"SECONDS":{let v=e.state.env.get("SECONDS");if(v!==void 0){e.state.env.delete("SECONDS");e.state.secondsBase={n:Number.parseInt(v,10)||0,at:Date.now()}}' +
        'let b=e.state.secondsBase??{n:0,at:e.state.startTime};return String(b.n+Math.floor(Date.now()/1e3)-Math.floor(b.at/1e3))}',
    },
  ],
};
