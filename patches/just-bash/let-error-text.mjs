// `let`'s arithmetic errors read as bash's: the expression up to the error and the error token
// (`let: y = 08: value too great for base (error token is "08")`, `let: z = 1 / 0: division by 0 (error token is
// "0")`), as `(( ))` words them with `((: ` (bash's expr.c evalerror). just-bash printed the whole argument and the
// bare message.
export default {
  title: "let words its arithmetic errors as (( )) does, with let's name",
  upstream: 'src/interpreter/builtins/let.ts (an arithmetic error: the same message as the arithmetic command, labelled let)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'a.type==="ArithmeticCommand"&&(r=await Y(e,a.expression.expression))}}catch(i){return D(`bash: let: ${s}: ${i.message}\n`)}',
      replace: 'a.type==="ArithmeticCommand"&&(r=await Y(e,a.expression.expression))}}catch(i){return D(i instanceof ce?_jbArithError(e,"let: ",s.replace(/^\\s+/,""),i):`bash: let: ${s}: ${i.message}\n`)}',
    },
  ],
};
