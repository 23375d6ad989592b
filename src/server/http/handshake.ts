/**
 * Rejecting a WebSocket handshake with a real HTTP status and the JSON envelope, never a 101 followed by a
 * close (docs/wire-reference.md §4.3; the GO SDK parses the body of a failed handshake with the §2.4 rules).
 * A thrown error is answered by http/errors.ts `errorAnswer`, the one REST answers with; this file owns the
 * raw-socket write only.
 */
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import { SPRITE_VERSION } from '../../protocol/sprite-tree.ts';
import { errorAnswer } from './errors.ts';

/** Writes `HTTP/1.1 <status>` with a JSON (or text) body on the raw socket and closes it. */
export function rejectHandshake(
  socket: Duplex,
  status: number,
  body: object | string,
  extraHeaders: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? `${body}\n` : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
  const headers = {
    'Content-Type': type,
    'Content-Length': String(Buffer.byteLength(text)),
    'Sprite-Version': SPRITE_VERSION,
    Connection: 'close',
    ...extraHeaders,
  };
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (!socket.writable) return void socket.destroy();
  socket.end(`${head.join('\r\n')}\r\n\r\n${text}`, () => socket.destroy());
}

/**
 * Refuses a handshake for `err` (thrown before the upgrade) with the status, headers and envelope REST would
 * send for it, always as JSON (`errorAnswer`'s `alwaysJson`): a ModelError in its kind's envelope (`Retry-After`
 * on 429), anything else 500 `internal_error`.
 */
export function rejectHandshakeFor(socket: Duplex, err: unknown): void {
  const { status, headers, body } = errorAnswer(err, { alwaysJson: true });
  rejectHandshake(socket, status, body, headers);
}
