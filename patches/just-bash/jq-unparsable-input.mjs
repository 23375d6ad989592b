// jq reads its input as one stream of JSON texts and runs the filter on each value as soon as it is parsed, so the
// values before a parse error are printed; at the error it reports `parse error: … at line L, column C` and stops
// reading, status 4 with Debian's jq 1.6; a file named before the bad one that could not be opened is still
// reported, with status 2, but the files after it are never opened; with --slurp nothing runs
// (src/main.c, the jv_parser loop). just-bash parsed all the input before running anything, so one bad value
// dropped every output, and it reported status 5.
export default {
  title: 'jq runs the input values before a parse error, then reports it and stops, status 4',
  upstream: 'src/commands/jq (input parsing): parse value by value, run the values before a parse error, report `parse error: … at line L, column C` and exit 4',
  file: 'dist/bundle/chunks/chunk-UL6YJ7FT.js',
  edits: [
    {
      find: 'function J(i,t){',
      replace:
        // The values of `text` (whose value ends `ends` gives) up to the first that does not parse, and jq's report of it.
        'function __jqParsePrefix(text,ends,limits){let values=[],start=0;for(let end of ends){let chunk=text.slice(start,end);try{values.push(...J(chunk,limits))}catch(err){if(err instanceof j)throw err;' +
        'let bare=chunk.replace(/"(\\\\.|[^"\\\\])*"?/g,"").replace(/\\b(true|false|null)\\b|-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?/g,""),word=/[A-Za-z_]/.test(bare),open=/Unexpected end|unclosed/.test(err.message),' +
        'lines=text.slice(0,word||open?end:start+chunk.trimEnd().length).split("\\n");' +
        'return{values,error:`parse error: ${word?"Invalid numeric literal":open?"Unfinished JSON term at EOF":"Invalid literal"} at line ${lines.length}, column ${lines[lines.length-1].length}\\n`}}start=end}return{values}}' +
        'function J(i,t){',
    },
    { find: 'let IQ=[],IL=[],', replace: 'let JP="",IQ=[],IL=[],' },
    {
      find: 'let V0=IQ.length,E0=__jqValueEnds(o);l(IQ,J(f,v));for(let q=V0;q<IQ.length;q++)IL.push(__jqAt(S,o,E0[q-V0]??o.length))}',
      replace: 'let V0=IQ.length,E0=__jqValueEnds(o),P0=__jqParsePrefix(o,E0,v);l(IQ,P0.values);for(let q=V0;q<IQ.length;q++)IL.push(__jqAt(S,o,E0[q-V0]??o.length));if(P0.error){JP=P0.error;' +
        // jq opens its files one by one as it reads: those after the bad one were never tried.
        'let at=N.indexOf(S);at>=0&&(JF=JF.split("\\n").filter(m=>{let f=m.match(/^jq: error: Could not open file (.*): /);return!f||N.indexOf(f[1])<at}).join("\\n"));break}}',
    },
    {
      find: 'else if(p){let o=[];for(let{content:f}of D){let c=f.trim();c&&l(o,J(c,v))}IQ.push(o),IL.push(LZ)}',
      replace: 'else if(p){let o=[];for(let{content:f}of D){let c=f.trim(),P0=c?__jqParsePrefix(c,__jqValueEnds(c),v):{values:[]};l(o,P0.values);if(P0.error){JP=P0.error;break}}JP||(IQ.push(o),IL.push(LZ))}',
    },
    { find: 'return{stdout:JO,stderr:JF+JE,exitCode:JF?2:JL?5:te,', replace: 'return{stdout:JO,stderr:JF+JE+JP,exitCode:JF?2:JP?4:JL?5:te,' },
  ],
};
