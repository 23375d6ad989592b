// GNU unexpand counts a column per byte (coreutils 9's unexpand has no multibyte support), and a tab inside a run of
// blanks belongs to the run: `unexpand -t 8 <<< $' \tx'` is `\tx` (the run ends at a stop, so it is one tab), and
// `unexpand -a <<< 'é       x'` puts the tab after 6 spaces (`é` is 2 columns). just-bash advanced one column per
// character and wrote the blanks before a tab as they were.
export default {
  title: 'unexpand: byte columns, and a tab inside a run of blanks joins the run',
  upstream: 'src/commands/unexpand/unexpand.ts (unexpandLine): the pending run ends at the current column (a tab extends it to its stop), and a character advances the column by its UTF-8 length',
  file: 'dist/bundle/chunks/chunk-2VWG4LDT.js',
  edits: [
    { find: 'let r=l+t.length;if(!o&&!u)', replace: 'let r=a;if(!o&&!u)' },
    {
      find: 'r==="\t"?(d(),n+=r,a=C(a,e)):(d(),n+=r,a++,u=!1)',
      replace: 'r==="\t"?(o||u?(t.length===0&&(l=a),t+=r,a=C(a,e)):(d(),n+=r,a=C(a,e))):(d(),n+=r,a+=r.codePointAt(0)<128?1:r.codePointAt(0)<2048?2:r.codePointAt(0)<65536?3:4,u=!1)',
    },
  ],
};
