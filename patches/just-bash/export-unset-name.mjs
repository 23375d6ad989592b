// `export NAME` of a variable that has no value marks it for export and leaves it unset (`${NAME-unset}` is `unset`,
// and a child does not get it), as bash's manual says of `export`; just-bash gave it the empty value.
export default {
  title: 'export NAME without a value leaves NAME unset',
  upstream: 'src/interpreter/builtins/export.ts handleExport: for a NAME without "=", only mark it exported; do not set it to ""',
  file: 'dist/bundle/index.js',
  edits: [{ find: 'else e.state.env.has(a)||e.state.env.set(a,"");mt(e,a)}', replace: 'mt(e,a)}' }],
};
