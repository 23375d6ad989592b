// jq's lexer reads a number that starts with its decimal point (`.5`, `.25e1`) as a number, as jq's grammar does
// (`\.[0-9]+` is one of its number forms); just-bash read `.` as the identity and failed on the digits.
export default {
  title: "jq reads .5 as a number",
  upstream: "src/commands/jq/ (tokenizer): a `.` followed by a digit starts a NUMBER token",
  file: "dist/bundle/chunks/chunk-6KK46B7Q.js",
  edits: [
    { find: "if(c===\".\"){n.push({type:\"DOT\",pos:i});continue}", replace: "if(c===\".\"&&!p(r())){n.push({type:\"DOT\",pos:i});continue}" },
    { find: "if(p(c)){let h=c;for(;!o()&&(p(r())||r()===\".\"", replace: "if(p(c)||c===\".\"){let h=c;for(;!o()&&(p(r())||r()===\".\"" },
  ],
};
