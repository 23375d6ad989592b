// A string key of an object construction may interpolate (`{"\($k)2": 2}`), as any jq string; just-bash took the
// key's text as written.
export default {
  title: "jq object keys interpolate",
  upstream: "src/commands/jq/ (parser, object construction): a string key with \\( is a string interpolation",
  file: "dist/bundle/chunks/chunk-6KK46B7Q.js",
  edits: [
    { find: "else if(this.check(\"STRING\"))t=this.advance().value,this.expect(\"COLON\",\"Expected ':'\"),r=this.parseObjectValue();", replace: "else if(this.check(\"STRING\")){t=this.advance().value,t.includes(\"\\\\(\")&&(t=this.parseStringInterpolation(t)),this.expect(\"COLON\",\"Expected ':'\"),r=this.parseObjectValue()}" },
  ],
};
