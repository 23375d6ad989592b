// jq string literals take JSON's escapes (jq's manual, "String interpolation"; src/lexer.l): `\uXXXX` (a UTF-16 unit,
// so `\ud83d\ude00` is one character), `\b`, `\f`, `\/` as well as `\n \r \t \\ \"`. just-bash dropped the backslash
// of the first three, so `"a\u0001b"` was the text `au0001b`. On output jq writes U+007F (DEL) as `\u007f` as it does
// the other control characters (src/jv_print.c); just-bash wrote the byte, in output and in tojson/tostring.
export default {
  title: 'jq string literals take \\uXXXX, \\b and \\f; DEL is written as \\u007f',
  upstream: 'src/commands/query-engine/lexer (string escapes) and the JSON writer (escape U+007F)',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'switch(y){case"n":h+=`',
      replace: 'switch(y){case"u":{let x=e.slice(t,t+4);if(/^[0-9a-fA-F]{4}$/.test(x)){h+=String.fromCharCode(parseInt(x,16)),t+=4;break}h+="u";break}case"b":h+="\\b";break;case"f":h+="\\f";break;case"n":h+=`',
    },
    { find: 's===13?o="\\\\r":s<32&&(o=', replace: 's===13?o="\\\\r":(s<32||s===127)&&(o=' },
    {
      find: 'function __jqDump(v){return typeof v=="number"?__jqNumberText(v):v===null||typeof v!="object"?JSON.stringify(v):',
      replace: 'function __jqDump(v){return typeof v=="number"?__jqNumberText(v):v===null||typeof v!="object"?JSON.stringify(v).replace(/\\x7f/g,"\\\\u007f"):',
    },
    { find: 'Object.keys(v).map(k=>JSON.stringify(k)+":"+__jqDump(v[k]))', replace: 'Object.keys(v).map(k=>__jqDump(k)+":"+__jqDump(v[k]))' },
  ],
};
