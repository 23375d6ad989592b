// Each word of an array assignment given to declare/local/typeset/export/readonly is expanded like any word,
// splitting included: `local -a items=("$@")` makes one element per argument, `declare a=("${b[@]}")` copies b,
// `declare w=($(cmd))` splits the output. Bash's manual, "Arrays" ("name=(value1 value2 … )" … "each value is
// subject to … word splitting"). just-bash joined every expansion into the current element, so each of these made
// one element holding everything.
export default {
  title: 'declare/local NAME=( "$@" ) expands each word to as many elements as it yields',
  upstream: 'src/interpreter/assignment-expansion.ts expandArrayAssignmentWord (declare form): a part that is a whole word on its own expands with expandWordWithGlob and adds each value',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'else{(v.type==="SingleQuoted"||v.type==="DoubleQuoted"||v.type==="Escaped")&&(d=!0),p=!1;let k=await se(e,{type:"Word",parts:[v]});h(k)}',
      replace: 'else{let _n=t.parts[t.parts.indexOf(v)+1];if(!c&&!d&&v.type!=="SingleQuoted"&&v.type!=="Escaped"&&(!_n||_n.type==="Literal"&&/^[\\s)]/.test(_n.value))){let A=await gt(e,{type:"Word",parts:[v]});for(let C of A.values)m(C);continue}(v.type==="SingleQuoted"||v.type==="DoubleQuoted"||v.type==="Escaped")&&(d=!0),p=!1;let k=await se(e,{type:"Word",parts:[v]});h(k)}',
    },
  ],
};
