// jq 1.6 defines rint/0 (jq-whole-number-rounding gives it nearbyint's rounding): a known name, not "Unknown function".
export default {
  title: "jq knows rint",
  upstream: "src/commands/jq/ (the builtin name table): rint/0",
  file: "dist/bundle/chunks/chunk-UL6YJ7FT.js",
  edits: [
    { find: "nearbyint/0 nextafter/2", replace: "nearbyint/0 rint/0 nextafter/2" },
  ],
};
