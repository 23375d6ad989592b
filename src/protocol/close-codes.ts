/**
 * WebSocket close codes spritzer uses after an upgrade, and `ProtocolError`, the error a strict parser of a
 * client's text message throws, carrying the close code and reason the server should answer with.
 * It does not close sockets itself; the ws layer does. Handshake failures are HTTP statuses, never closes.
 * @see spec/asyncapi.yaml `x-close-codes`; docs/wire-reference.md §4.4, §4.5, §6.1
 */

/**
 * Close codes with their meaning on the Sprites channels. Values are RFC 6455 codes.
 * @see spec/asyncapi.yaml `x-close-codes` (a test keeps this table and the spec equal)
 */
export const CloseCode = {
  /** Normal end: after the non-TTY exit frame; after the TTY `exit` message with code 0; proxy ended. */
  Normal: 1000,
  /**
   * Going away: on proxy, the upstream TCP connection closed ("upstream closed"); on every channel, the server is
   * shutting down ("server shutting down": a graceful stop, or the embedding program's `close()`).
   */
  GoingAway: 1001,
  /** Proxy: bad init ("Invalid port number", "Expected JSON initialization message"). */
  UnsupportedData: 1003,
  /**
   * The client broke the channel's protocol after the upgrade: a text message a strict parse refuses, or JSON
   * nested too deep or holding too many items for its channel (found before it is parsed).
   */
  PolicyViolation: 1008,
  /**
   * A client message larger than its channel accepts (docs/limits.md "WebSocket messages"), judged from the frame
   * headers before its payload is read; reason `text message larger than N bytes` or `binary message …`.
   */
  MessageTooBig: 1009,
  /** Internal error; proxy dial failure ("Failed to connect to target: …"); TTY exit with a non-zero code. */
  InternalError: 1011,
  /**
   * A client read its socket too slowly. fs/watch: more events waited than the server holds per watcher;
   * resubscribe. exec/attach: more output than the per-client backlog limit waited for it (docs/limits.md, reason
   * {@link CloseReason.ClientTooSlow}); the command runs on under its disconnect rule.
   */
  TryAgainLater: 1013,
} as const;

/** One of the close codes in {@link CloseCode}. */
export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];

/** The close reasons the wire reference fixes word for word (docs/wire-reference.md §6.1). */
export const CloseReason = {
  InvalidPort: 'Invalid port number',
  ExpectedJsonInit: 'Expected JSON initialization message',
  UpstreamClosed: 'upstream closed',
  ShuttingDown: 'server shutting down',
  /** Followed by the dial error's text. */
  FailedToConnectPrefix: 'Failed to connect to target: ',
  /** 1013 on exec: the client fell too far behind the output (spritzer's own wording). */
  ClientTooSlow: 'client too slow: output backlog limit exceeded',
} as const;

/**
 * A client message that breaks the channel's protocol. `closeCode` and `reason` are what the server should
 * close with (reason ≤ 123 bytes, as RFC 6455 allows); `message` is the same text for logs.
 */
export class ProtocolError extends Error {
  constructor(
    readonly closeCode: CloseCode,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'ProtocolError';
  }
}

/**
 * The close code that ends a TTY session with `exitCode`: 1000 for 0, 1011 otherwise, so that clients
 * that read only the close code (JS mirror, Python) still tell zero from non-zero.
 * @see docs/wire-reference.md §4.5 (emulator recommendation) and §16 (the TTY exit-signalling disagreement)
 * @deviation production drops TCP without a close frame on attached sockets; spritzer always closes.
 */
export function ttyExitCloseCode(exitCode: number): CloseCode {
  return exitCode === 0 ? CloseCode.Normal : CloseCode.InternalError;
}
