// `s/re/new/w FILE` writes the pattern space to FILE when the substitution was made (GNU sed manual, "The s
// Command": the w flag, FILE to the end of the line). just-bash's lexer stopped at the flags it knew, so `w FILE`
// became a separate `w` command that wrote every line, substituted or not. `/dev/stdout` is sed's own output, in
// order, as GNU sed treats that name.
export default {
  title: 'sed s///w FILE writes only the lines it substituted; w /dev/stdout is sed\'s own output',
  upstream: 'src/commands/sed/lexer.ts readSubstitute (read a trailing `w FILE` into the token), parser.ts parseSubstituteFromToken (keep it), executor.ts substitute (push a pending file write when a substitution was made)',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    {
      find: 'if(o==="g"||o==="i"||o==="p"||o==="I"||this.isDigit(o))u+=this.advance();else break}return{type:c.SUBSTITUTE,value:`s${n}${s}${n}${r}${n}${u}`,pattern:s,replacement:r,flags:u,line:e,column:t}}',
      replace: 'if(o==="g"||o==="i"||o==="p"||o==="I"||this.isDigit(o))u+=this.advance();else break}let w;if(this.peek()==="w"){this.advance();for(;this.peek()===" "||this.peek()==="\\t";)this.advance();w="";for(;this.pos<this.input.length&&this.peek()!=="\\n";)w+=this.advance()}return{type:c.SUBSTITUTE,value:`s${n}${s}${n}${r}${n}${u}`,pattern:s,replacement:r,flags:u,writeFile:w,line:e,column:t}}',
    },
    {
      find: 'printOnMatch:n.includes("p"),nthOccurrence:s,extendedRegex:this.extendedRegex}}}',
      replace: 'printOnMatch:n.includes("p"),nthOccurrence:s,extendedRegex:this.extendedRegex,writeFile:e.writeFile}}}',
    },
    {
      find: 'r.printOnMatch&&e.lineNumberOutput.push(e.patternSpace)}}catch{}break}',
      replace: 'r.printOnMatch&&e.lineNumberOutput.push(e.patternSpace),r.writeFile!==void 0&&(r.writeFile==="/dev/stdout"?e.lineNumberOutput.push(e.patternSpace):e.pendingFileWrites.push({filename:r.writeFile,content:`${e.patternSpace}\n`}))}}catch{}break}',
    },
    {
      // The w command writing to /dev/stdout: sed's own output, in order (GNU opens that name as its stdout).
      find: 'case"writeFile":e.pendingFileWrites.push({filename:i.filename,content:`${e.patternSpace}\n`});break;',
      replace: 'case"writeFile":i.filename==="/dev/stdout"?e.lineNumberOutput.push(e.patternSpace):e.pendingFileWrites.push({filename:i.filename,content:`${e.patternSpace}\n`});break;',
    },
  ],
};
