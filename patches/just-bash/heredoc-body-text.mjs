// The body of an unquoted here-document is expanded as bash's manual gives it (Here Documents): parameter, command
// and arithmetic expansion only, and `\` is special only before `$`, `` ` ``, `\` and a newline. Nothing else of a
// word's syntax applies. just-bash read the body as a word: a `[` (or `*`, `?`, `@(`) began a pattern whose text was
// written back as it stood, so `[[ -n \$X ]]` and `arr[\$i]` kept their backslashes; `\[` lost its backslash (an
// escaped pattern character); a leading `~` was expanded to $HOME and `$'a\tb'` was decoded.
// The same mode reads ${p@P}'s prompt text and the arithmetic text set -x shows, where none of these apply either.
export default {
  title: 'here-document: the body is expanded without patterns, tildes or $\'…\', and \\ only escapes $ ` \\ newline',
  upstream: 'src/parser/word-parser.ts parseWordParts (in heredoc mode: no Glob parts, no tilde or ANSI-C quoting, and a backslash before any other character kept with it)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let b=i?w==="$"||w==="`"||w===`\n`:w==="$"||w==="`"||w===\'"\'||w==="\'"||w===`\n`||c&&w==="}",g=o?',
      replace: 'let b=i?w==="$"||w==="`"||w==="\\\\"||w===`\n`:w==="$"||w==="`"||w===\'"\'||w==="\'"||w===`\n`||c&&w==="}",g=!i&&(o?',
    },
    {
      find: '"*?[]\\\\(){}.^+".includes(w);b?w!==`\n`&&(p+=w)',
      replace: '"*?[]\\\\(){}.^+".includes(w));b?w!==`\n`&&(p+=w)',
    },
    {
      find: 'if(m==="$"&&t[d+1]==="\'"){h();let{part:w,endIndex:b}=ul(e,t,d+2)',
      replace: 'if(m==="$"&&t[d+1]==="\'"&&!i){h();let{part:w,endIndex:b}=ul(e,t,d+2)',
    },
    {
      find: 'let g=al(e,t,d),y=t[g];if(y===void 0||y==="/"||y===":"){h();',
      replace: 'let g=al(e,t,d),y=t[g];if(!i&&(y===void 0||y==="/"||y===":")){h();',
    },
    {
      find: 'if("@*+?!".includes(m)&&d+1<t.length&&t[d+1]==="("){let w=Ld(t,d+1)',
      replace: 'if(!i&&"@*+?!".includes(m)&&d+1<t.length&&t[d+1]==="("){let w=Ld(t,d+1)',
    },
    {
      find: 'if(m==="*"||m==="?"||m==="["){h();let{pattern:w,endIndex:b}=cl(e,t,d)',
      replace: 'if(!i&&(m==="*"||m==="?"||m==="[")){h();let{pattern:w,endIndex:b}=cl(e,t,d)',
    },
  ],
};
