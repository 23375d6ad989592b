// `${name[*]}` joins the elements with the first character of IFS wherever it expands as one string (an assignment
// `x="${a[*]}"`, a here-string `<<<"${a[*]}"`): bash's manual, "Arrays" and "Special Parameters" ($*). just-bash
// joined with a space there, so `IFS=$'\n' sorted=($(sort <<<"${arr[*]}"))` sorted one line.
export default {
  title: '${name[*]} as one string joins with the first character of IFS',
  upstream: 'src/interpreter/expansion/variable.ts getVariable (name[@]/name[*]): join "*" with getIfsSeparator, "@" with a space',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(a==="@"||a==="*"){let f=K(e,o);if(f.length>0)return f.map(([,p])=>p).join(" ");',
      replace: 'if(a==="@"||a==="*"){let f=K(e,o);if(f.length>0)return f.map(([,p])=>p).join(a==="*"?X(e.state.env):" ");',
    },
  ],
};
