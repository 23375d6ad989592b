// jq's --indent N (0 to 7 spaces; 0 is compact output; -c, --tab and --indent: the last one given wins) and -C
// (colour escapes even when stdout is no terminal; -M turns them off again), as jq 1.6 reads them. just-bash
// refused --indent and ignored -C.
export default {
  title: 'jq --indent N and -C/--color-output',
  upstream: 'src/commands/jq/jq.ts jq: parse --indent N (range -1..7, the last of -c/--tab/--indent wins) and -C/-M; pass indent and color to the JSON formatter',
  file: 'dist/bundle/chunks/chunk-UL6YJ7FT.js',
  edits: [
    { find: 'g=!1,V=".",', replace: 'g=!1,JI=2,JC=!1,V=".",' },
    { find: 'if(e==="--tab")g=!0;', replace: 'if(e==="--tab")g=!0,a=!1;' },
    {
      find: 'else if(e==="--arg"){',
      replace:
        'else if(e==="--indent"){let n=i[++r];if(n===void 0||!/^-?\\d+$/.test(n)||Number(n)<-1||Number(n)>7)return{stdout:"",stderr:"jq: --indent takes a number between -1 and 7\\nUse jq --help for help with command-line options,\\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\\n",exitCode:2};let v=Number(n);v<0?(g=!0,a=!1):v===0?(g=!1,a=!0):(g=!1,a=!1,JI=v)}else if(e==="--arg"){',
    },
    {
      find: 'if(!(e==="-C"||e==="--color")){if(!(e==="-M"||e==="--monochrome"))',
      replace: 'if((e==="-C"||e==="--color"||e==="--color-output")&&(JC=!0),(e==="-M"||e==="--monochrome"||e==="--monochrome-output")&&(JC=!1),!(e==="-C"||e==="--color"||e==="--color-output")){if(!(e==="-M"||e==="--monochrome"||e==="--monochrome-output"))',
    },
    { find: 'else if(n!=="C"){if(n!=="M")return T("jq",`-${n}`)}', replace: 'else if(n==="C")JC=!0;else if(n==="M")JC=!1;else return T("jq",`-${n}`)' },
    { find: 'useTab:g,limitKind:"string_length"}', replace: 'useTab:g,indent:JI,color:JC,limitKind:"string_length"}' },
  ],
};
