/**
 * The size of a request's head (request line + header fields): the server's limit (Node's `maxHeaderSize`, raised
 * by default so a 200 KB command line fits in exec's query parameters) and the answer when a request passes it:
 * 414 when the request line alone is too long, 431 when the header fields are, each a JSON body in the outer API's
 * envelope naming the limit and its flag, then the connection closes. Other parse errors keep Node's answers
 * (400 / 408). It owns the `clientError` listener of the http.Server; it does not route or read bodies.
 * @see issue 12 item 8; docs/limits.md; https://nodejs.org/api/http.html#event-clienterror
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiErrorBody } from './errors.ts';

/** Default `--max-header-size`: 1 MiB for the request line and header fields together (Node's own default is 16 KiB). */
export const DEFAULT_MAX_HEADER_BYTES = 1024 * 1024;

/** Which part of the request head passed the limit. */
export type HeadOverflow = 'request-line' | 'header-fields';

/**
 * Judges which part overflowed from the chunk the parser held when it stopped (`err.rawPacket`) and how far into it
 * it got (`err.bytesParsed`). Node counts the head's bytes as each span (the target, a header value) ends, so the
 * parser stops at the end of the span that passed the limit: the target ends at a space, a header field or value at
 * a line end or a colon. When the span ran to the end of the chunk, a chunk with no space, colon or line end in it
 * is taken as part of the target (URLSearchParams encodes both). A heuristic: Node does not say which it was.
 * @see https://github.com/nodejs/node/blob/v20.x/src/node_http_parser.cc (`TrackHeader`)
 */
export function headOverflowKind(rawPacket: Buffer | undefined, bytesParsed: number | undefined): HeadOverflow {
  if (!rawPacket || rawPacket.length === 0) return 'header-fields';
  const at = bytesParsed ?? rawPacket.length;
  if (at < rawPacket.length) {
    const b = rawPacket[at];
    if (b === 0x20) return 'request-line';
    if (b === 0x0d || b === 0x0a || b === 0x3a) return 'header-fields';
  }
  const seen = rawPacket.subarray(0, Math.min(at + 1, rawPacket.length));
  return seen.includes(0x20) || seen.includes(0x3a) || seen.includes(0x0a) ? 'header-fields' : 'request-line';
}

/**
 * The status and JSON body for an overflow of `limit` bytes.
 * @deviation Go's net/http answers 431 `text/plain` for both; spritzer tells a long target (414) from long headers (431) and answers JSON.
 */
export function headOverflowAnswer(kind: HeadOverflow, limit: number): { status: 414 | 431; body: ApiErrorBody } {
  if (kind === 'request-line') {
    return {
      status: 414,
      body: {
        error: 'uri_too_long',
        message: `the request line (method, path and query) is longer than ${limit} bytes, spritzer's limit (--max-header-size)`,
      },
    };
  }
  return {
    status: 431,
    body: {
      error: 'request_header_fields_too_large',
      message: `the request line and header fields are longer than ${limit} bytes, spritzer's limit (--max-header-size)`,
    },
  };
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 414: 'URI Too Long', 431: 'Request Header Fields Too Large' };

function writeAndClose(socket: Duplex, status: number, body?: ApiErrorBody): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const payload = body ? JSON.stringify(body) : '';
  const head = [`HTTP/1.1 ${status} ${REASONS[status]}`, 'Connection: close'];
  if (body) head.push('Content-Type: application/json; charset=utf-8');
  head.push(`Content-Length: ${Buffer.byteLength(payload)}`);
  socket.end(`${head.join('\r\n')}\r\n\r\n${payload}`);
}

/**
 * Installs the `clientError` listener on `server` (whose `maxHeaderSize` is `limit`): `HPE_HEADER_OVERFLOW` →
 * 414/431 JSON as above; a request timeout → 408; any other parse error → 400 (Node's defaults, which a listener
 * replaces); a reset socket is just destroyed.
 */
export function answerOversizeHeads(server: Server, limit: number): void {
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number }, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      const answer = headOverflowAnswer(headOverflowKind(err.rawPacket, err.bytesParsed), limit);
      writeAndClose(socket, answer.status, answer.body);
      return;
    }
    if (err.code === 'HPE_HEADER_TIMEOUT' || err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      writeAndClose(socket, 408);
      return;
    }
    writeAndClose(socket, 400);
  });
}
