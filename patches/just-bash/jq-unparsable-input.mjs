// jq reads its input as one stream of JSON texts and runs the filter on each value as soon as it is parsed, so the
// values before a parse error are printed; at the error it reports `jq: parse error: Invalid numeric literal at line L,
// column C` (just past the character that ended the bad word; `Invalid literal` for one starting t/f/n; `Unfinished
// JSON term at EOF at …` and `Unfinished string at EOF at …` for an open container or string) and stops
// reading, status 5: the wording and status of a sprite's jq 1.7 (src/main.c: `jq: parse error: …`, JQ_ERROR_UNKNOWN;
// Debian's jq 1.6, the differential's reference, writes `parse error: …` and exits 4, so those cases are excluded
// there); a file named before the bad one that could not be opened is still
// reported, with status 2, but the files after it are never opened; with --slurp nothing runs
// (src/main.c, the jv_parser loop). just-bash parsed all the input before running anything, so one bad value
// dropped every output.
export default {
  title: 'jq runs the input values before a parse error, then reports it and stops, status 5',
  upstream: 'src/commands/jq (input parsing): parse value by value, run the values before a parse error, report `jq: parse error: … at line L, column C` and exit 5 (jq 1.7)',
  file: 'dist/bundle/chunks/chunk-UL6YJ7FT.js',
  edits: [
    {
      find: 'function J(i,t){',
      replace:
        // The values of `text` (whose value ends `ends` gives) up to the first that does not parse, and jq's report of it.
        'function __jqParsePrefix(text,ends,limits){let values=[],start=0;for(let end of ends){try{values.push(...J(text.slice(start,end),limits))}catch(err){if(err instanceof j)throw err;return{values,error:`jq: parse error: ${__jqParseError(text,start)}\\n`}}start=end}return{values}}' +
        // jq's report of the first bad token from `start`: a bare word is an invalid (numeric) literal, reported just
        // past the character that ended it (or at EOF); an open string or container at the end is unfinished.
        'function __jqParseError(text,start){let at=(p,eof)=>{let l=text.slice(0,p).split("\\n");return`${eof?"at EOF at":"at"} line ${l.length}, column ${l[l.length-1].length}`},i=start,depth=0;' +
        'for(;i<text.length;){let c=text[i];if(c===\'"\'){let k=i+1;for(;k<text.length&&text[k]!==\'"\';)k+=text[k]==="\\\\"?2:1;if(k>=text.length)return`Unfinished string ${at(text.length,!0)}`;i=k+1;continue}' +
        'if(c==="["||c==="{"){depth++,i++;continue}if(c==="]"||c==="}"){depth--,i++;continue}if(/[\\s,:]/.test(c)){i++;continue}' +
        'let w=/^[^\\s\\[\\]{}",:]+/.exec(text.slice(i))[0],e=i+w.length;if(!/^(true|false|null|-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?)$/.test(w)){let kind=/^[tfn]/.test(w)?"Invalid literal":"Invalid numeric literal";return e>=text.length?`${kind} ${at(text.length,!0)}`:`${kind} ${at(e+1)}`}i=e}' +
        'return depth>0?`Unfinished JSON term ${at(text.length,!0)}`:`Expected separator between values ${at(i)}`}' +
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
    { find: 'return{stdout:JO,stderr:JF+JE,exitCode:JF?2:JL?5:te,', replace: 'return{stdout:JO,stderr:JF+JE+JP,exitCode:JF?2:JP?5:JL?5:te,' },
  ],
};
