// `${h[@]:offset:length}` on an associative array slices its values in the order `${h[@]}` lists them, as bash 5.2
// does (its manual calls the result undefined; assoc_subrange): a positive offset counts from 1 (0 is 1 too), a negative
// one from the end (-1 the last; reaching one before the first is the first, further is nothing), a length of 0 takes
// one value and a negative length is the usual expansion error. just-bash refused every such slice with a garbled
// `${h[@]: 0: 3}: bad substitution`.
export default {
  title: 'substrings of an associative array slice its values as bash does',
  upstream: 'src/interpreter/expansion/parameter-ops.ts (array Substring): slice an associative array\'s values (assoc_subrange\'s offsets) instead of failing',
  file: 'dist/bundle/index.js',
  edits: [
    { find: "if(e.state.associativeArrays?.has(o))throw new G(1,\"\",`bash: \\${${o}[@]: 0: 3}: bad substitution\n`);", replace: "if(e.state.associativeArrays?.has(o)){let c=l.offset?await n(e,l.offset.expression):0,u=l.length?await n(e,l.length.expression):void 0,f=K(e,o);if(u!==void 0&&u<0)throw new ce(`${l.length.originalText??u}: substring expression < 0`);let _n=f.length,_b=c<0?_n+c+1:c;if(_b<0)return{values:[],quoted:!0};_b=Math.max(_b,1);let _p=f.slice(_b-1,u===void 0?_n:_b-1+Math.max(u,1)).map(([,h])=>h);if(_p.length===0)return{values:[],quoted:!0};return a?{values:[_p.join(X(e.state.env))],quoted:!0}:{values:_p,quoted:!0}}" },
    { find: "if(e.state.associativeArrays?.has(c))throw new G(1,\"\",`bash: \\${${c}[@]: 0: 3}: bad substitution\n`);", replace: "if(e.state.associativeArrays?.has(c)){let u=K(e,c);if(i!==void 0&&i<0)throw new ce(`${r.length.originalText??i}: substring expression < 0`);let _n=u.length,_b=s<0?_n+s+1:s;if(_b<0)return\"\";_b=Math.max(_b,1);return u.slice(_b-1,i===void 0?_n:_b-1+Math.max(i,1)).map(([,w])=>w).join(\" \")}" },
  ],
};
