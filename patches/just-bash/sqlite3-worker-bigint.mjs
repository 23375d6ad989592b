// The worker half of sqlite3-real-format: INTEGER values come back as BigInt so that the formatters can tell them
// from REAL ones (sql.js returns both as numbers unless asked).
export default {
  title: 'sqlite3 worker reads INTEGER values as BigInt (apart from REAL ones)',
  upstream: 'src/commands/sqlite3/worker.ts (prepared.get(null, { useBigInt: true }))',
  file: 'dist/bundle/chunks/sqlite3-worker.js',
  edits: [{ find: 'const row = prepared.get();', replace: 'const row = prepared.get(null, { useBigInt: true });' }],
};
