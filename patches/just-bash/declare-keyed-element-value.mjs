// `declare -A m=([k]='v "w"' [b]="x y")` keeps each value whole: the builtin gets its array literal back as text,
// and a `[key]=value` element went in unquoted, so a value with blanks or quotes was cut at the first blank.
// The value now goes in double-quoted (with `\` and `"` escaped), which both literal readers take apart again.
export default {
  title: 'declare with an array literal keeps [key]=value values that hold blanks or quotes',
  upstream: 'src/interpreter/helpers/word-parts.ts expandDeclareArrayLiteral: re-quote the value of a "[key]=value" element (double quotes, escaping \\ and ") when rebuilding the literal text',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: '/^\\[.+\\]=/.test(k)?A=k:',
      replace: '/^\\[.+\\]=/.test(k)?A=k.replace(/^(\\[[^\\]]*\\]=)([\\s\\S]*)$/,(m,p,w)=>`${p}"${w.replace(/[\\\\"]/g,"\\\\$&")}"`):',
    },
  ],
};
