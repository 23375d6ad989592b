// GNU sed's `l` wraps between any two escapes, also between the octal escapes of one multibyte character (`\303\`
// then `\251` on the next line), and shows a byte that is no part of a UTF-8 character as its own escape (`\351`).
// GNU sed manual, "Other Commands" (`l`); the previous list patch kept a character's escapes together, and a byte
// carried as a private-use character (sed-utf8-invalid-bytes.mjs) showed as that character's three escapes.
export default {
  title: "sed l wraps between a character's octal escapes and shows a stray byte as one escape",
  upstream: 'src/commands/sed/executor.ts (the list escaper): each octal escape is a unit of the line wrapping; a carried byte is escaped as itself',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    {
      find: 's<32||s>=127?[...new TextEncoder().encode(n)].map(b=>"\\\\"+b.toString(8).padStart(3,"0")).join(""):n;w>0&&o+q.length>w-1&&(e+="\\\\\\n",o=0),e+=q,o+=q.length}',
      replace: 's<32||s>=127?(s>=63360&&s<=63487?[s-63232]:[...new TextEncoder().encode(n)]).map(b=>"\\\\"+b.toString(8).padStart(3,"0")):n;for(const u of typeof q=="string"?[q]:q)w>0&&o+u.length>w-1&&(e+="\\\\\\n",o=0),e+=u,o+=u.length}',
    },
  ],
};
