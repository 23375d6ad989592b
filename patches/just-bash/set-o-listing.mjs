// `set -o`, `set +o` and `shopt -o` show the options as bash does: `%-15s<TAB>on|off` lines, errtrace and functrace
// (`set -E`, `set -T`) as set, braceexpand, hashall and interactive-comments on (always on here, as in a default
// bash). `$-` (with E and T) is shell-variables'. Bash's manual, "The Set Builtin", "The Shopt Builtin" (-o).
const ON = '["braceexpand","hashall","interactive-comments"]';
export default {
  title: 'set -o / set +o / shopt -o listings as bash prints them',
  upstream: 'src/interpreter/builtins/set.ts (set -o/+o listing), shopt.ts (-o), expansion variable "-": bash\'s "%-15s\\t%s" layout, errtrace/functrace from the options, braceexpand/hashall/interactive-comments on',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function zu(e){let t=ju.map(r=>`${r.padEnd(16)}${e.state.options[r]?"on":"off"}`),n=qu.map(r=>`${r.padEnd(16)}off`);',
      replace: `function zu(e){let t=ju.map(r=>\`\${r.padEnd(15)}\\t\${e.state.options[r]?"on":"off"}\`),n=qu.map(r=>\`\${r.padEnd(15)}\\t\${e.state.options[r]??${ON}.includes(r)?"on":"off"}\`);`,
    },
    {
      find: 'n=qu.map(r=>`set +o ${r}`);return`${[...t,...n].sort()',
      replace: `n=qu.map(r=>\`set \${e.state.options[r]??${ON}.includes(r)?"-o":"+o"} \${r}\`);return\`\${[...t,...n].sort((x,y)=>x.slice(7)<y.slice(7)?-1:1)`,
    },
    {
      find: 'let b=l.includes(w),g=a.get(w),y=b||!g?!1:e.state.options[g];n&&!y||r&&y||m.push(s?`set ${y?"-o":"+o"} ${w}`:`${w}\t\t${y?"on":"off"}`)',
      replace: `let b=l.includes(w),g=a.get(w),y=b||!g?e.state.options[w]??${ON}.includes(w):e.state.options[g];n&&!y||r&&y||m.push(s?\`set \${y?"-o":"+o"} \${w}\`:\`\${w.padEnd(15)}\\t\${y?"on":"off"}\`)`,
    },
    {
      find: 'if(b){n||r||(i?u=!0:s?(h=Pt(p,`set +o ${m}`,h,o),u=!0):(h=Pt(p,`${m}\t\toff`,h,o),u=!0));continue}',
      replace: `if(b){let y=e.state.options[m]??${ON}.includes(m);n||r||(i?y||(u=!0):s?(h=Pt(p,\`set \${y?"-o":"+o"} \${m}\`,h,o),y||(u=!0)):(h=Pt(p,\`\${m.padEnd(15)}\\t\${y?"on":"off"}\`,h,o),y||(u=!0)));continue}`,
    },
    {
      find: '(h=Pt(p,`${m}\t\t${y?"on":"off"}`,h,o),y||(u=!0))}}return{exitCode:u?1:0',
      replace: '(h=Pt(p,`${m.padEnd(15)}\\t${y?"on":"off"}`,h,o),y||(u=!0))}}return{exitCode:u?1:0',
    },
  ],
};
