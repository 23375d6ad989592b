// A NUL in a `$'…'` string (`$'a\0b'`, `$'\x00'`, `$'\c@'`) ends it: bash keeps words as C strings, so the text
// after the NUL is dropped (`echo $'a\0b'` prints `a`). just-bash kept the NUL and the rest in the word.
export default {
  title: "$'…' ends at a NUL it decodes",
  upstream: "src/parser (ANSI-C quoting, $'…'): truncate the decoded text at its first NUL",
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'default:r+=i,s++}else r+=i,s++}return s<t.length&&t[s]==="\'"&&s++,{part:M.literal(r),endIndex:s}}',
      replace: 'default:r+=i,s++}else r+=i,s++}return s<t.length&&t[s]==="\'"&&s++,{part:M.literal(r.includes("\\0")?r.slice(0,r.indexOf("\\0")):r),endIndex:s}}',
    },
  ],
};
