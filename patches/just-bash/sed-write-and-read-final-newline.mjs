// GNU sed (execute.c) writes what `r FILE` reads as it is, with no newline added, and `R FILE` the line it reads
// with its own newline (none for a last line that has none), in the order the commands ran among the `a` texts;
// `r` of a missing file still counts as appended text (the last line's missing newline is then written first), and
// `R` past the file's end appends nothing. Each output (`w FILE`, `s///w FILE`, `W FILE`) keeps its own missing
// newline: a last line read without one is written without one, and a newline is added only when more follows.
// just-bash added a newline to every appended text, read `R`'s file as if it ended in an empty line, queued `r`/`R`
// after the cycle's `a` texts, and ended every `w` line with a newline.
export default {
  title: 'sed r/R write the file\'s bytes as read, in order; w keeps a missing final newline',
  upstream: 'src/commands/sed/executor.ts (readFile/readFileLine push a slot into appendBuffer filled after the cycle; writeFile/writeFirstLine/substitute w carry patternChomped) and sed.ts processContent (raw slots written as they are, R lines split with their newlines, per-file missing newline on flush)',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    { find: 'B=new Map,D=new Map,', replace: 'B=new Map,D=new Map,DM=new Set,' },
    {
      find: 'case"readFile":e.pendingFileReads.push({filename:i.filename,wholeFile:!0});break;case"readFileLine":e.pendingFileReads.push({filename:i.filename,wholeFile:!1});break;',
      replace: 'case"readFile":{let o={raw:""};e.appendBuffer.push(o),e.pendingFileReads.push({filename:i.filename,wholeFile:!0,slot:o});break}case"readFileLine":{let o={raw:"",skip:!0};e.appendBuffer.push(o),e.pendingFileReads.push({filename:i.filename,wholeFile:!1,slot:o});break}',
    },
    {
      find: 'g.appendBuffer.push(y.replace(/\\n$/,""))}',
      replace: 'C.slot.raw=y}',
    },
    {
      find: 'T.set(S,pe.split(`\n`)),B.set(S,0)}let y=T.get(S),_=B.get(S);y&&_!==void 0&&_<y.length&&(g.appendBuffer.push(y[_]),B.set(S,_+1))',
      replace: 'T.set(S,pe.match(/[^\\n]*\\n|[^\\n]+/g)||[]),B.set(S,0)}let y=T.get(S),_=B.get(S);y&&_!==void 0&&_<y.length&&(C.slot.raw=y[_],C.slot.skip=!1,B.set(S,_+1))',
    },
    {
      find: 'for(let C of g.pendingFileWrites){let S=r.resolvePath(u,C.filename),y=D.get(S)||"";D.set(S,y+C.content)}',
      replace: 'for(let C of g.pendingFileWrites){let S=r.resolvePath(u,C.filename),y=(D.get(S)||"")+(DM.has(S)?`\n`:""),c=C.content;DM.delete(S),C.chomped===!1&&(c=c.slice(0,-1),DM.add(S)),D.set(S,y+c)}',
    },
    {
      find: 'for(let C of g.appendBuffer)C.startsWith("__INSERT__")?ee.push(C.slice(10)):q.push(C);',
      replace: 'for(let C of g.appendBuffer)typeof C=="object"?C.skip||q.push(C):C.startsWith("__INSERT__")?ee.push(C.slice(10)):q.push(C);',
    },
    {
      find: 'for(let C of q)v(C==="\\uE000"?"":`${C}\n`);',
      replace: 'for(let C of q)v(typeof C=="object"?C.raw:C==="\\uE000"?"":`${C}\n`);',
    },
    {
      find: 'r.writeFile==="/dev/stdout"?e.lineNumberOutput.push(e.patternSpace):e.pendingFileWrites.push({filename:r.writeFile,content:`${e.patternSpace}\n`})',
      replace: 'r.writeFile==="/dev/stdout"?e.lineNumberOutput.push(e.patternSpace):e.pendingFileWrites.push({filename:r.writeFile,content:`${e.patternSpace}\n`,chomped:e.patternChomped})',
    },
    {
      find: 'case"writeFile":i.filename==="/dev/stdout"?e.lineNumberOutput.push(e.patternSpace):e.pendingFileWrites.push({filename:i.filename,content:`${e.patternSpace}\n`});break;',
      replace: 'case"writeFile":i.filename==="/dev/stdout"?e.lineNumberOutput.push(e.patternSpace):e.pendingFileWrites.push({filename:i.filename,content:`${e.patternSpace}\n`,chomped:e.patternChomped});break;',
    },
    {
      find: 'e.pendingFileWrites.push({filename:i.filename,content:`${u}\n`});break}',
      replace: 'e.pendingFileWrites.push({filename:i.filename,content:`${u}\n`,chomped:r!==-1||e.patternChomped});break}',
    },
  ],
};
