/**
 * The wire protocol shared by the server and the SDK: exec frames, NDJSON lines, control envelopes, JSON
 * text messages, close codes and signal names. No I/O lives here.
 * @see docs/wire-reference.md §4–§6; spec/asyncapi.yaml
 */
export * from './frames.ts';
export * from './ndjson.ts';
export * from './control.ts';
export * from './messages.ts';
export * from './signals.ts';
export * from './query.ts';
