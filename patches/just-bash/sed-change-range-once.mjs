// GNU sed's `c` on a two-address range prints its text once, at the range's end (GNU sed manual, "Other Commands":
// "delete the lines matching the address or address-range, and output the lines of text which follow this command";
// execute.c writes the text only when the range is not still active). A range that input ends inside prints
// nothing; a negated range (`2,4!c`) and a single address print it for every line. just-bash printed it for every
// line of the range.
export default {
  title: 'sed c on a range prints its text once, where the range ends',
  upstream: 'src/commands/sed/executor.ts, case "change": set changedText only when the command\'s range is not still open after this line (negated and one-address commands always)',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    {
      find: 'function O(i,e,t,n,s,a){let r=Ee(i,e,t,n,s,a);return i?.negated?!r:r}',
      replace:
        'function O(i,e,t,n,s,a){let r=Ee(i,e,t,n,s,a);return i?.negated?!r:r}' +
        'function rangeStillOpen(i,e,t,s){if(!i||i.negated||i.start===void 0||i.end===void 0)return!1;let r=i.start,u=i.end;' +
        'if(typeof r!="object"&&typeof u!="object"){let m=typeof r=="number"?r:r==="$"?t:1,d=typeof u=="number"?u:t;return m<=d&&e<d}' +
        'return s?.get(G(i))?.active===!0}',
    },
    { find: 'case"change":e.deleted=!0,e.changedText=i.text;break;', replace: 'case"change":e.deleted=!0,rangeStillOpen(i.address,n,s,e.rangeStates)||(e.changedText=i.text);break;' },
  ],
};
