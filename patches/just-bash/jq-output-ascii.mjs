// jq -a (--ascii-output) writes every non-ASCII character of its JSON output as a \uXXXX escape (a surrogate pair
// for one beyond the BMP): `jq -a . <<< '"ü😀"'` prints "\u00fc\ud83d\ude00". just-bash accepted -a and ignored it.
// (jq 1.6 with -r and -a aborts on a string output; a raw string is left as is here.) jq 1.6 src/main.c, jv_print.c
// JV_PRINT_ASCII.
export default {
  title: 'jq -a/--ascii-output escapes non-ASCII characters of the JSON output as \\uXXXX',
  upstream: 'src/commands/jq/jq.ts: an ascii option passed to the output formatter, escaping code units above 0x7F',
  file: 'dist/bundle/chunks/chunk-UL6YJ7FT.js',
  edits: [
    { find: 'g=!1,JI=2,JC=!1,V="."', replace: 'g=!1,JI=2,JC=!1,JA=!1,V="."' },
    { find: 'else if(!(e==="-a"||e==="--ascii")){', replace: 'else if(e==="-a"||e==="--ascii-output"||e==="--ascii")JA=!0;else{' },
    { find: 'else if(n!=="a"){', replace: 'else if(n==="a")JA=!0;else{' },
    {
      find: 'let O=ee(o,w,{compact:a,raw:m||h,sortKeys:E,useTab:g,indent:JI,color:JC,limitKind:"string_length"}),U=P(O);',
      replace:
        'let O=ee(o,w,{compact:a,raw:m||h,sortKeys:E,useTab:g,indent:JI,color:JC,limitKind:"string_length"});JA&&(typeof o!="string"||!(m||h))&&(O=O.replace(/[\\u0080-\\uffff]/g,ch=>"\\\\u"+ch.charCodeAt(0).toString(16).padStart(4,"0")));let U=P(O);',
    },
  ],
};
