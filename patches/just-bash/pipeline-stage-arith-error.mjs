// An arithmetic error in one stage of a pipeline (`echo $(( 08 )) | grep -c x`) fails that stage only, with status 1
// and its message, as in bash, where each stage is a subshell: the other stages still run (grep prints 0). just-bash
// let the error abort the whole pipeline, as it does for a command on its own.
export default {
  title: 'an arithmetic error fails only its pipeline stage',
  upstream: 'src/interpreter/pipeline.ts executePipeline: in a pipeline of several commands, turn an ArithmeticError of a stage into that stage\'s result (its stdout and stderr, status 1), as BadSubstitutionError already is',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if($ instanceof Ke)N={stdout:$.stdout,stderr:$.stderr,exitCode:1};else if($ instanceof G&&t.commands.length>1)',
      replace: 'if($ instanceof Ke||$ instanceof ce&&t.commands.length>1)N={stdout:$.stdout,stderr:$.stderr,exitCode:1};else if($ instanceof G&&t.commands.length>1)',
    },
  ],
};
