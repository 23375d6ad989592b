// jq's `fromdateiso8601` and `todateiso8601` are the ISO 8601 conversions `fromdate` and `todate` are defined by
// (jq's manual, "Dates"; src/builtin.jq `def fromdate: fromdateiso8601;`); just-bash had only the short names, so the
// long ones failed with "Unknown function" (status 3).
export default {
  title: 'jq fromdateiso8601 and todateiso8601',
  upstream: 'src/commands/query-engine/evaluator date builtins: fromdateiso8601 and todateiso8601 as fromdate and todate',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    { find: 'case"fromdate":{', replace: 'case"fromdateiso8601":case"fromdate":{' },
    { find: 'case"todate":{', replace: 'case"todateiso8601":case"todate":{' },
  ],
};
