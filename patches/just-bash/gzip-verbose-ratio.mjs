// gzip -v reports how much the deflated data saved, as GNU gzip's display_ratio prints it: the header (with the stored
// name) and the 8-byte trailer are not counted, the per-mille figure is truncated, and a sign column comes first
// (`a.txt:\t  3.1% -- replaced with a.txt.gz`, ` -6.2%` when the data grew). just-bash divided the whole .gz size by
// the input and printed JavaScript's rounding without the sign column (`-71.9%` for the same file).
export default {
  title: 'gzip -v prints the ratio of the deflated data, GNU-formatted',
  upstream: 'src/commands/gzip/gzip.ts processFile: the -v ratio is (input - deflated data) / input, the gzip header and trailer excluded, printed as display_ratio does (sign or space, %2d.%1d%%, truncated)',
  file: 'dist/bundle/chunks/chunk-5ELNHAAJ.js',
  edits: [
    {
      find: 'function I(e){return e.best?',
      replace:
        'function __gzRatio(z,n){let h=10,g=z[3]|0;if(g&4)h+=2+(z[10]|z[11]<<8);if(g&8){while(h<z.length&&z[h])h++;h++}if(g&16){while(h<z.length&&z[h])h++;h++}if(g&2)h+=2;let r=n>0?Math.trunc(1e3*(n-(z.length-h-8))/n):0,s=r<0?"-":" ";r=Math.abs(r);return`${s}${String(Math.trunc(r/10)).padStart(2)}.${r%10}%`}function I(e){return e.best?',
    },
    { find: 'let d=p.length>0?((1-p.length/l.length)*100).toFixed(1):"0.0";return{stdout:"",stderr:`${t}:\t${d}% --', replace: 'let d=__gzRatio(p,l.length);return{stdout:"",stderr:`${t}:\t${d} --' },
    { find: 'let f=p.length>0?((1-d.length/p.length)*100).toFixed(1):"0.0";return{stdout:"",stderr:`${t}:\t${f}% --', replace: 'let f=__gzRatio(d,p.length);return{stdout:"",stderr:`${t}:\t${f} --' },
  ],
};
