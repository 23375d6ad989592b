// column without -t fills columns with whole input lines (empty lines skipped), as util-linux's column does: each
// column is the longest entry rounded up to the next tab stop wide, as many columns as fit in the width (-c, 80 by
// default; at least one), filled down first (or across with -x), padded with tabs. just-bash split lines into
// words, padded with spaces and counted the width differently (`column -c 20` on 3,1,2,10,1 gave one line).
export default {
  title: 'column fill mode: whole lines, tab stops, columns first (-x rows first)',
  upstream: 'src/commands/column/column.ts: fill mode takes whole non-empty lines, widths rounded to tab stops, tab padding, -x/--fillrows',
  file: 'dist/bundle/chunks/chunk-HW6ZCMM5.js',
  edits: [
    { find: 'noMerge:{short:"n",type:"boolean"}}', replace: 'noMerge:{short:"n",type:"boolean"},fillRows:{short:"x",long:"fillrows",type:"boolean"}}' },
    {
      find: 'function z(t,e,i,l){if(t.length===0)return"";',
      replace:
        'function z(t,e,i,l){if(t.length===0)return"";{let n=0;for(let s of t)n=Math.max(n,s.length);n=n+8&-8;let d=new B(l,"column",void 0,1),o=Math.max(1,Math.floor(e/n)),c=0,pad=end=>{for(let q;(q=c+8&-8)<=end;)d.append("\\t"),c=q};if(i){let col=0,end=n;for(let k=0;k<t.length;k++){d.append(t[k]);c+=t[k].length;if(k===t.length-1)break;if(++col===o)c=col=0,end=n,d.append("\\n");else pad(end),end+=n}}else{let rows=Math.ceil(t.length/o);for(let r=0;r<rows;r++){r>0&&d.append("\\n");c=0;for(let b=r,end=n;;end+=n){d.append(t[b]);c+=t[b].length;if((b+=rows)>=t.length)break;pad(end)}}}return d.build()}',
    },
    {
      find: 'for(let w of p)f.push(w)}F=z(f,r,d,h)}',
      replace: 'for(let w of p)f.push(w)}F=z(x.filter(m=>m.length>0),r,i.result.flags.fillRows,h)}',
    },
  ],
};
