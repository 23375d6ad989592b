// js-exec ran any code with `await … ` in it as an ES module (its guess for a top-level await), also when every
// `await` sits inside an async function: such a program lost sloppy mode, `this`, and its completion value. `--script`
// says the code is a script (spritzer's node knows: V8 compiled it as one), and the guess is left to code without it.
export default {
  title: 'js-exec --script: the code is a plain script, whatever `await` it holds',
  upstream: 'src/commands/js-exec/js-exec.ts parseArgs: a --script option that turns off the top-level-await module guess',
  file: 'dist/bundle/chunks/js-exec-XKF2B7C3.js',
  edits: [
    {
      find: 'if(s==="-m"||s==="--module"){e.isModule=!0;continue}',
      replace: 'if(s==="-m"||s==="--module"){e.isModule=!0;continue}if(s==="--script"){e.spzScript=!0;continue}',
    },
    {
      find: '!u&&/\\bawait\\s+[\\w([`]/.test(s)&&(u=!0)',
      replace: '!u&&!t.spzScript&&/\\bawait\\s+[\\w([`]/.test(s)&&(u=!0)',
    },
  ],
};
