// `type` (and `command -v`/`-V`) report an alias only while aliases expand: a non-interactive bash has
// `expand_aliases` off, so after `alias ll='ls -l'` a `type -t ll` prints nothing and fails. Bash's manual, "Aliases"
// ("Aliases are not expanded when the shell is not interactive, unless expand_aliases is set"); builtins/type.def
// describe_command looks aliases up only when expand_aliases is set.
export default {
  title: 'type and command -v report aliases only while expand_aliases is set',
  upstream: 'src/interpreter/builtins/type.ts: look the name up among aliases only when shoptOptions.expand_aliases',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'let g=e.state.env.get(`BASH_ALIAS_${m}`);', replace: 'let g=e.state.shoptOptions.expand_aliases?e.state.env.get(`BASH_ALIAS_${m}`):void 0;' },
    // command -v / -V
    { find: 'let l=e.state.env.get(`BASH_ALIAS_${a}`);', replace: 'let l=e.state.shoptOptions.expand_aliases?e.state.env.get(`BASH_ALIAS_${a}`):void 0;' },
  ],
};
