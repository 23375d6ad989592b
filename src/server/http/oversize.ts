/**
 * The size of a request's head (request line + header fields): the server's limit (Node's `maxHeaderSize`, raised
 * by default so a 200 KB command line fits in exec's query parameters) and the answer when a request passes it:
 * 414 when the request line alone is too long, 431 when the header fields are (told apart by where the request
 * line's line end fell in the connection's bytes), each a JSON body in the outer API's
 * envelope naming the limit and its flag, then the connection closes. Other parse errors keep Node's answers
 * (400 / 408, also in the JSON envelope). It owns the `clientError` listener of the http.Server; it does not route or read bodies.
 * @see docs/limits.md (request line + header fields); https://nodejs.org/api/http.html#event-clienterror
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ApiErrorBody } from './errors.ts';

/** Default `--max-header-size`: 1 MiB for the request line and header fields together (Node's own default is 16 KiB). */
export const DEFAULT_MAX_HEADER_BYTES = 1024 * 1024;

/** The request-head limit in force (`--max-header-size`, else the default); exec's command-line bound too. */
export function maxHeadBytes(deps: { maxHeaderBytes?: number }): number {
  return deps.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES;
}

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
 * Where the current request's head starts in a connection's bytes (`start`, an offset into everything read from
 * the socket) and where its request line ends (`lf`, the offset of its first LF; undefined while not yet read).
 */
interface RequestLine {
  start: number;
  lf: number | undefined;
  /** The `data` listener that looks for `lf` (attached while it is unknown). */
  peek: (chunk: Buffer) => void;
}

/**
 * Judges the overflow from the request line's measured end: the parser stopped at byte `stop` of the connection;
 * if the request line had not ended there, the target passed the limit, else the header fields did. Undefined
 * when the line was not measured for this request (then `headOverflowKind` guesses from the chunk).
 */
export function overflowFromLineEnd(line: { start: number; lf: number | undefined } | undefined, stop: number): HeadOverflow | undefined {
  if (!line || stop < line.start) return undefined;
  return line.lf === undefined || line.lf >= stop ? 'request-line' : 'header-fields';
}

/**
 * Measures each request line on `server`'s connections: a `data` listener (run before the parser's) finds the
 * first LF of the request's head and then detaches, so it reads at most the request line. It is armed again when
 * a response finishes, for the next request on a kept-alive connection (a pipelined request that arrived before
 * that is judged by the chunk heuristic instead). Adding a `data` listener makes Node feed the parser from
 * JavaScript rather than natively (as it does for TLS); nothing else changes.
 * @see https://github.com/nodejs/node/blob/v20.x/lib/_http_server.js (`generateSocketListenerWrapper`, `unconsume`)
 */
function measureRequestLines(server: Server): WeakMap<Duplex, RequestLine> {
  const lines = new WeakMap<Duplex, RequestLine>();
  const arm = (socket: Socket, line: RequestLine) => {
    line.start = socket.bytesRead;
    line.lf = undefined;
    socket.removeListener('data', line.peek);
    socket.prependListener('data', line.peek);
  };
  server.on('connection', (socket: Socket) => {
    const line: RequestLine = {
      start: 0,
      lf: undefined,
      peek(chunk: Buffer) {
        const chunkStart = socket.bytesRead - chunk.length;
        const at = chunk.indexOf(0x0a, Math.max(0, line.start - chunkStart));
        if (at < 0) return;
        line.lf = chunkStart + at;
        socket.removeListener('data', line.peek);
      },
    };
    lines.set(socket, line);
    arm(socket, line);
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const line = lines.get(socket);
    if (line) res.once('finish', () => !socket.destroyed && arm(socket, line));
  });
  return lines;
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

/**
 * The JSON body of the 400 for a request Node's HTTP parser refuses before any route sees it (a NUL or a blank in
 * the request target, a bad chunk size, a bad header line…): the outer API's envelope, naming the parser's code.
 */
export function malformedRequestAnswer(code: string | undefined): ApiErrorBody {
  return { error: 'invalid_request', message: `malformed HTTP request${code ? ` (${code})` : ''}` };
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
 * 414/431 JSON as above, judged by the measured request line (`measureRequestLines`), else by the chunk; a request timeout → 408; any other parse error → 400 (Node's statuses, which a listener
 * replaces), each with a JSON body; a reset socket is just destroyed.
 */
export function answerOversizeHeads(server: Server, limit: number): void {
  const lines = measureRequestLines(server);
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number }, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      const chunk = err.rawPacket?.length ?? 0;
      const stop = (socket as Socket).bytesRead - chunk + (err.bytesParsed ?? chunk);
      const kind = overflowFromLineEnd(lines.get(socket), stop) ?? headOverflowKind(err.rawPacket, err.bytesParsed);
      const answer = headOverflowAnswer(kind, limit);
      writeAndClose(socket, answer.status, answer.body);
      return;
    }
    if (err.code === 'HPE_HEADER_TIMEOUT' || err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      writeAndClose(socket, 408, { error: 'request_timeout', message: 'the request head did not arrive in time' });
      return;
    }
    writeAndClose(socket, 400, malformedRequestAnswer(err.code));
  });
}
