// GNU sed ends a line it writes with a newline when that text was read with one (execute.c's `chomped` flag), and
// the flag travels with the text: `h`/`H` give the hold space the pattern space's, `g`/`G` give the pattern space
// the hold space's (true until something is held), `x` swaps them, `n`/`N` take the new line's. So
// `printf 'x\ny' | sed G` ends in a newline though the input does not, and `sed 'h;G'` does not. just-bash dropped
// the final newline whenever the input lacked one.
export default {
  title: 'sed: the final newline follows the text written (G, g, x carry the hold space\'s)',
  upstream: 'src/commands/sed/executor.ts (a chomped flag on the pattern and hold spaces: set by h/H/g/G/x/n/N) and sed.ts processContent (drop the last newline only when the last text written was read without one)',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    { find: 'totalLines:d,substitutionMade:!1,coverage:o}', replace: 'totalLines:d,substitutionMade:!1,coverage:o,patternChomped:R<d-1||k,holdChomped:n.hc??!0,inputNewline:k}' },
    { find: 'w=g.holdSpace,J=g.lastPattern', replace: 'w=g.holdSpace,n.hc=g.holdChomped,n.pc=g.patternChomped,J=g.lastPattern' },
    { find: 'return!k&&f&&E.endsWith(`\n`)&&(E=E.slice(0,-1)),{output:E,exitCode:l}}', replace: 'return!(n.pc??k)&&f&&E.endsWith(`\n`)&&(E=E.slice(0,-1)),{output:E,exitCode:l}}' },
    { find: 'case"hold":e.holdSpace=e.patternSpace;break;', replace: 'case"hold":e.holdSpace=e.patternSpace,e.holdChomped=e.patternChomped;break;' },
    { find: 'case"holdAppend":', replace: 'case"holdAppend":e.holdChomped=e.patternChomped;' },
    { find: 'case"get":e.patternSpace=e.holdSpace;break;', replace: 'case"get":e.patternSpace=e.holdSpace,e.patternChomped=e.holdChomped;break;' },
    { find: 'case"getAppend":', replace: 'case"getAppend":e.patternChomped=e.holdChomped;' },
    {
      find: 'case"exchange":{let r=e.patternSpace;e.patternSpace=e.holdSpace,e.holdSpace=r;break}',
      replace: 'case"exchange":{let r=e.patternSpace;e.patternSpace=e.holdSpace,e.holdSpace=r;let c=e.patternChomped;e.patternChomped=e.holdChomped,e.holdChomped=c;break}',
    },
    {
      find: 'e.lineNumber=t.currentLineIndex+e.linesConsumedInCycle+1,e.substitutionMade=!1}else{e.quit=!0,e.deleted',
      replace: 'e.lineNumber=t.currentLineIndex+e.linesConsumedInCycle+1,e.patternChomped=e.lineNumber<t.lines.length||e.inputNewline,e.substitutionMade=!1}else{e.quit=!0,e.deleted',
    },
    {
      find: 'e.lineNumber=t.currentLineIndex+e.linesConsumedInCycle+1}else{e.quit=!0;break}',
      replace: 'e.lineNumber=t.currentLineIndex+e.linesConsumedInCycle+1,e.patternChomped=e.lineNumber<t.lines.length||e.inputNewline}else{e.quit=!0;break}',
    },
  ],
};
