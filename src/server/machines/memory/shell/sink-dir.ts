/**
 * Where the engine's output sinks live (output-sink.ts): a redirection to a path under it is the engine's, not the
 * script's. Its own module so that the modules reading scripts (shell-level.ts) can tell such redirections apart
 * without importing the sinks.
 */
export const SINK_DIR = '/dev/.spritzer/';
