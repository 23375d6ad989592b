// `${#var}` counts characters in a UTF-8 locale and bytes in the C locale (bash(1) "Parameter Expansion": "the
// length in characters"; a character is a byte under LC_CTYPE=C): `x=é; LC_ALL=C; echo ${#x}` prints 2. The locale is
// the shell's LC_ALL, else LC_CTYPE, else LANG; none is the C locale. just-bash always counted characters.
// @deviation Any locale name saying UTF-8 counts characters, installed or not (bash falls back to C for a locale
// the system lacks).
export default {
  title: '${#var} counts bytes in the C locale',
  upstream: 'src/interpreter/expansion/parameter-ops.ts (Length): count UTF-8 bytes when LC_ALL/LC_CTYPE/LANG name no UTF-8 locale',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let s=le(e,t,0)||"";return String([...s].length)}return String([...n].length)}',
      replace:
        'let s=le(e,t,0)||"";return String(__jbLength(e,s))}return String(__jbLength(e,n))}' +
        'function __jbLength(e,v){let l=e.state.env.get("LC_ALL")||e.state.env.get("LC_CTYPE")||e.state.env.get("LANG")||"";return/utf-?8/i.test(l)?[...v].length:Buffer.byteLength(v,"utf8")}',
    },
  ],
};
