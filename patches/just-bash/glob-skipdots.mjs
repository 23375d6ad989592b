// With `globskipdots` (on by default since bash 5.2) a pattern never matches `.` and `..`, even one that begins with
// a dot: `.*/` matches hidden directories only, `.*` hidden names only. Bash's manual, "Pathname Expansion" and
// "The Shopt Builtin". just-bash added both names to every directory read for a dot pattern and dropped them only when
// they ended the path, so `.*/` gave `./ ../` and `.*/x` looked inside the parent directory.
export default {
  title: 'globskipdots: a pattern never matches . and .. (unless they are written as a component)',
  upstream: 'src/shell/glob.ts GlobExpander.expandSegments: add the "." and ".." entries only for a component that is exactly "." or "..", or a dot pattern with globskipdots off',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(s.startsWith(".")||this.dotglob){',
      replace: 'if(s==="."||s===".."||s.startsWith(".")&&!this.globskipdots){',
    },
    {
      find: '(s.startsWith(".")||this.dotglob)&&(a.includes(".")',
      replace: '(s==="."||s===".."||s.startsWith(".")&&!this.globskipdots)&&(a.includes(".")',
    },
    {
      // The matching above already skips them; a `.` or `..` written in the pattern (`*/..`) stays (GLOBIGNORE, when
      // set, still drops them, as bash's manual says).
      find: 'if((this.hasGlobignore||this.globskipdots)&&(r==="."||r===".."))return!1;',
      replace: 'if(this.hasGlobignore&&(r==="."||r===".."))return!1;',
    },
  ],
};
