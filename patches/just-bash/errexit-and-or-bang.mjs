// `set -e` is ignored in every command of an `&&`/`||` list but the last and in a pipeline inverted with `!`, and
// that reaches into the functions and compound commands run there: `f || echo failed` runs all of f even when a
// command inside it fails. Bash's manual, "The Set Builtin" (-e); just-bash only skipped the exit for the status of
// such a pipeline itself, so a failure inside a function called there still ended the shell.
export default {
  title: 'set -e is ignored inside whatever runs before && / || or after !',
  upstream: 'src/interpreter/interpreter.ts Interpreter.executeStatement: run a pipeline that is followed by && / || or is negated with state.inCondition = true (restored after), as if/while conditions are run',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let f=await this.executePipeline(c);',
      replace: 'let f,_ic=this.ctx.state.inCondition;(l<t.pipelines.length-1||c.negated)&&(this.ctx.state.inCondition=!0);try{f=await this.executePipeline(c)}finally{this.ctx.state.inCondition=_ic}',
    },
  ],
};
