// jq's todate is strftime("%Y-%m-%dT%H:%M:%SZ"), which takes gmtime's broken-down time as well as seconds:
// `0 | gmtime | todate` is "1970-01-01T00:00:00Z" (just-bash wanted a number).
export default {
  title: "jq todate takes a broken-down time",
  upstream: "src/commands/jq/ (todate): accept gmtime's array like strftime",
  file: "dist/bundle/chunks/chunk-6KK46B7Q.js",
  edits: [
    { find: "case\"todate\":{if(typeof e!=\"number\")throw new Error(\"todate requires a number input\");", replace: "case\"todate\":{if(Array.isArray(e)&&typeof e[0]==\"number\"&&typeof e[1]==\"number\"){let[a,l,y=1,m=0,b=0,A=0]=e;return[new Date(Date.UTC(a,l,y,m,b,Math.floor(A))).toISOString().replace(/\\.\\d{3}Z$/,\"Z\")]}if(typeof e!=\"number\")throw new Error(\"todate requires a number input\");" },
  ],
};
