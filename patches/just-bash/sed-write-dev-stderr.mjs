// GNU sed treats the file name /dev/stderr in `w FILE` and `s///w FILE` as its own standard error (sed manual,
// "Commands": "/dev/stdout and /dev/stderr ... refer to the standard output and error"). just-bash wrote the lines
// into the filesystem's /dev/stderr, a device that drops them, so they never reached the command's stderr.
export default {
  title: 'sed w /dev/stderr writes to sed\'s standard error',
  upstream: 'src/commands/sed/sed.ts (flushing pending file writes): append the content for /dev/stderr to the result\'s stderr',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    {
      find: 'if(r&&u)for(let[R,g]of D)try{await p("flush pending file writes",()=>r.writeFile(R,g))}',
      replace: 'if(r&&u)for(let[R,g]of D)try{if(R==="/dev/stderr"&&n.sedShell){n.sedShell.stderr+=g;continue}await p("flush pending file writes",()=>r.writeFile(R,g))}',
    },
  ],
};
