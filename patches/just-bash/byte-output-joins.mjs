// The output of a function call, a `{ …; }` group, a `( … )` subshell, a script and a process substitution is the
// bytes its commands wrote, as in bash. just-bash joined its commands' output as text: bytes that are not UTF-8
// (gzip's output, `printf '\377'`) were read as Latin-1 characters and came out UTF-8 encoded (`ff` became `c3 bf`),
// so `gunzip -c <(gzip -c f)` and `f() { gzip -c x; }; f | gunzip` failed. The result builder now keeps such output
// as bytes: when a command's output is bytes that are not UTF-8 text, the joined output is bytes (the text parts
// encoded as UTF-8 around it). A command substitution still decodes its output as text when it is UTF-8.
export default {
  title: 'output joined from several commands keeps bytes that are not UTF-8',
  upstream: 'src/interpreter/output-builder.ts OutputBuilder.appendResult/build: remember the stdout chunks that are bytes not decodable as UTF-8 and build a bytes result (text chunks UTF-8 encoded) when there are any; src/interpreter/expansion.ts command substitution: take stdoutAsText(result)',
  file: 'dist/bundle/chunks/chunk-J2OBOJ64.js',
  edits: [
    {
      find: 'import{a as i}from"./chunk-GN6CQ3J4.js";',
      replace: 'import{a as i,e as __jbUtf8}from"./chunk-GN6CQ3J4.js";',
    },
    {
      // A bytes chunk passed on undecoded (appendResult's default, or bytes stdoutAsText could not decode) with a
      // byte over 0x7f is raw bytes; its index is kept.
      find: 'appendResult(t,s=t.stdout){let e=t.stdoutKind==="bytes"||t.stdoutEncoding==="binary"?"bytes":"text",r=e==="bytes"?s.length:i(s);this.append("stdout",s,Math.min(t.internalOutputAccounting?.stdout??0,r),e),',
      replace: 'appendResult(t,s=t.stdout){let e=t.stdoutKind==="bytes"||t.stdoutEncoding==="binary"?"bytes":"text",r=e==="bytes"?s.length:i(s);this.append("stdout",s,Math.min(t.internalOutputAccounting?.stdout??0,r),e),e==="bytes"&&s===t.stdout&&/[\\x80-\\xff]/.test(s)&&(this.rawStdoutChunks??=new Set).add(this.stdoutChunks.length-1),',
    },
    {
      find: 'build(t,s){return{stdout:this.stdoutChunks.join(""),stderr:this.stderrChunks.join(""),exitCode:t,...s,',
      replace: 'build(t,s){let R=this.rawStdoutChunks;return{stdout:R?this.stdoutChunks.map((c,j)=>R.has(j)?c:__jbUtf8(c)).join(""):this.stdoutChunks.join(""),stderr:this.stderrChunks.join(""),exitCode:t,...s,...R?{stdoutKind:"bytes",stdoutEncoding:"binary"}:{},',
    },
  ],
};
