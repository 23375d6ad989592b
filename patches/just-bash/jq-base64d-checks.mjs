// jq 1.6's @base64d reads up to the first `=`, fails on a character outside the base64 alphabet (`string ("@@@")
// is not valid base64 data`) and on a single leftover character (`trailing base64 byte found`); just-bash decoded
// whatever Buffer made of it, so bad input gave "" and status 0.
export default {
  title: "jq @base64d refuses what is not base64",
  upstream: "src/commands/jq/ (@base64d): decode up to '=', error on a non-alphabet character or one trailing character",
  file: "dist/bundle/chunks/chunk-6KK46B7Q.js",
  edits: [
    { find: "\"@base64d\":if(typeof e==\"string\"){if(typeof Buffer<\"u\")return[Buffer.from(e,\"base64\").toString(\"utf-8\")];", replace: "\"@base64d\":if(typeof e==\"string\"){let q=e.split(\"=\")[0],v=JSON.stringify(e),w=v.length>14?v.slice(0,11)+\"...\":v;if(/[^A-Za-z0-9+/]/.test(q))throw new Error(`string (${w}) is not valid base64 data`);if(q.length%4===1)throw new Error(`string (${w}) trailing base64 byte found`);if(typeof Buffer<\"u\")return[Buffer.from(q,\"base64\").toString(\"utf-8\")];" },
  ],
};
