// `${ref[@]}`, `${#ref[@]}`, `${ref[*]}` and the other whole-array forms through a nameref whose target is a scalar
// or unset read the target (bash's manual, "Shell Parameters": a nameref's references "are performed on the variable
// specified by the nameref variable's value"): `declare -n nr=arr; echo ${#nr[@]}` is 0 while arr is unset, and
// `${nr[@]}` is arr's value once it is a scalar. just-bash looked the array up through the nameref but fell back to
// the nameref's own value (the name `arr`) when the target was no array; and `${x[@]:0:1}` on a scalar x was empty
// where bash takes the scalar as element 0 ("Arrays": referencing an array without a subscript is element 0).
export default {
  title: 'whole-array expansions of a scalar, directly or through a nameref, read the scalar as element 0',
  upstream: 'src/interpreter/expansion: where an `name[@]` expansion falls back to the scalar value of a name that holds no array, resolve the name through its nameref first',
  file: 'dist/bundle/index.js',
  edits: [
    { find: "K(e,o);if(f.length>0)return f.map(([,p])=>p).join(a===\"*\"?X(e.state.env):\" \");let d=e.state.env.get(o)", replace: "K(e,o);if(f.length>0)return f.map(([,p])=>p).join(a===\"*\"?X(e.state.env):\" \");let d=e.state.env.get(__jbArrName(e,o))" },
    { find: "K(e,s);return i.length>0?String(i.length):e.state.env.get(s)", replace: "K(e,s);return i.length>0?String(i.length):e.state.env.get(__jbArrName(e,s))" },
    { find: "K(e,a),f=u.map(([,w])=>w);if(u.length===0){let w=e.state.env.get(a)", replace: "K(e,a),f=u.map(([,w])=>w);if(u.length===0){let w=e.state.env.get(__jbArrName(e,a))" },
    { find: "K(e,a),f=u.map(([,m])=>m);if(u.length===0){let m=e.state.env.get(a)", replace: "K(e,a),f=u.map(([,m])=>m);if(u.length===0){let m=e.state.env.get(__jbArrName(e,a))" },
    { find: "K(e,a),p=d.map(([,m])=>m);if(d.length===0){let m=e.state.env.get(a)", replace: "K(e,a),p=d.map(([,m])=>m);if(d.length===0){let m=e.state.env.get(__jbArrName(e,a))" },
    { find: "K(e,o),f=u.map(([,p])=>p);if(u.length===0){let p=e.state.env.get(o)", replace: "K(e,o),f=u.map(([,p])=>p);if(u.length===0){let p=e.state.env.get(__jbArrName(e,o))" },
    { find: "K(e,i);if(l.length===0){let d=e.state.env.get(i)", replace: "K(e,i);if(l.length===0){let d=e.state.env.get(__jbArrName(e,i))" },
    { find: "K(e,i);if(o.length>0)return{values:o.map(([,l])=>l),quoted:!0};let a=e.state.env.get(i)", replace: "K(e,i);if(o.length>0)return{values:o.map(([,l])=>l),quoted:!0};let a=e.state.env.get(__jbArrName(e,i))" },
    { find: "K(e,a);if(l.length>0)return{values:l.map(([,u])=>u),quoted:!0};let c=e.state.env.get(a)", replace: "K(e,a);if(l.length>0)return{values:l.map(([,u])=>u),quoted:!0};let c=e.state.env.get(__jbArrName(e,a))" },
    { find: "K(e,i),u=c.map(([,S])=>S);if(c.length===0){let S=e.state.env.get(i)", replace: "K(e,i),u=c.map(([,S])=>S);if(c.length===0){let S=e.state.env.get(__jbArrName(e,i))" },
    { find: "K(e,i),u=c.map(([,y])=>y);if(c.length===0){let y=e.state.env.get(i)", replace: "K(e,i),u=c.map(([,y])=>y);if(c.length===0){let y=e.state.env.get(__jbArrName(e,i))" },
    { find: "K(e,r),o;if(i.length===0){let f=e.state.env.get(r)", replace: "K(e,r),o;if(i.length===0){let f=e.state.env.get(__jbArrName(e,r))" },
    { find: "K(e,n.name).map(([,l])=>l),o.length===0){let l=e.state.env.get(n.name)", replace: "K(e,n.name).map(([,l])=>l),o.length===0){let l=e.state.env.get(__jbArrName(e,n.name))" },
    { find: "K(e,t);if(a.length>0)o=Math.max(...a.map(([c])=>typeof c==\"number\"?c:0))+1;else{let l=e.state.env.get(t)", replace: "K(e,t);if(a.length>0)o=Math.max(...a.map(([c])=>typeof c==\"number\"?c:0))+1;else{let l=e.state.env.get(__jbArrName(e,t))" },
    { find: "K(e,m[1]).map(([,w])=>w);if(v.length===0){let w=e.state.env.get(m[1])", replace: "K(e,m[1]).map(([,w])=>w);if(v.length===0){let w=e.state.env.get(__jbArrName(e,m[1]))" },
    // `${x[@]:off:len}` on a scalar takes it as element 0, as the other whole-array forms do.
    { find: "let u=K(e,c),f=0;if(s<0){", replace: "let u=K(e,c),f=0;if(u.length===0){let v=e.state.env.get(__jbArrName(e,c));v!==void 0&&(u=[[0,v]])}if(s<0){" },
  ],
};
