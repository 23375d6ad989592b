// jq 1.6 reports an undefined function or variable on the program line that names it, followed by as many spaces
// as the name's column on that line (its locfile_locate underlines with spaces only): `jq -n '1 | foo'` is
// `jq: error: foo/0 is not defined at <top-level>, line 1:` then `1 | foo` and four spaces; on a later line, `line
// N:` and that line. The name is found in the program text (outside strings and comments, not after `.`/`$`/`@`;
// the nth report of a name at its nth place); where it is not found, the whole program on line 1, as before.
// jq 1.6 src/locfile.c locfile_locate.
const PLACES =
  'function __jqPlaces(src,names){let seen=new Map;return names.map(m=>{let tok=m.startsWith("$")?m.split(" ")[0]:m.split("/")[0],n=seen.get(tok)??0;seen.set(tok,n+1);' +
  'let k=0,hit=-1,c=0;for(;k<src.length;){let ch=src[k];if(ch===\'"\'){for(k++;k<src.length&&src[k]!==\'"\';)k+=src[k]==="\\\\"?2:1;k++;continue}if(ch==="#"){for(;k<src.length&&src[k]!=="\\n";)k++;continue}' +
  'if(src.startsWith(tok,k)&&!/[\\w$.@]/.test(src[k-1]??"")&&!/\\w/.test(src[k+tok.length]??"")){if(c++===n){hit=k;break}k+=tok.length;continue}k++}' +
  'if(hit<0)return null;let line=src.slice(0,hit).split("\\n").length;return{line,text:src.split("\\n")[line-1]+" ".repeat(hit-src.lastIndexOf("\\n",hit-1)-1)}})}';

export default {
  title: "jq 1.6's place of an undefined name: its line, then spaces as many as its offset in the program",
  upstream: 'src/commands/jq/jq.ts compile errors: locate each undefined name (line and offset) as jq 1.6 locfile_locate prints it',
  file: 'dist/bundle/chunks/chunk-UL6YJ7FT.js',
  edits: [
    {
      find: 'function __jqCompile(src,vars,parse){let ast,fail=(lines)=>Object.assign(new Error("compile error"),{jqCompile:lines.map(m=>`jq: error: ${m} at <top-level>, line 1:\n${src}\n`)',
      replace: PLACES + 'function __jqCompile(src,vars,parse){let ast,fail=(lines,at)=>Object.assign(new Error("compile error"),{jqCompile:lines.map((m,k)=>`jq: error: ${m} at <top-level>, line ${at?.[k]?.line??1}:\n${at?.[k]?.text??src}\n`)',
    },
    { find: 'throw fail(names.map(m=>`${m} is not defined`))', replace: 'throw fail(names.map(m=>`${m} is not defined`),__jqPlaces(src,names))' },
  ],
};
