/**
 * Types of every JSON text message on the Sprites WebSockets (exec, attach, proxy, port and fs watch),
 * strict parsers for what clients send, and the close codes. Field names are the wire's (snake_case).
 * It does not normalise signal names (signals.ts does) and does not cover control envelopes (control.ts).
 * @see docs/wire-reference.md §4.6, §6; spec/asyncapi.yaml components/schemas (messages.test.ts keeps them equal)
 */
import { CloseCode, CloseReason, ProtocolError } from './close-codes.ts';

export { CloseCode, CloseReason, ProtocolError, ttyExitCloseCode } from './close-codes.ts';

/** Client → server (TTY): resize the PTY. `cols`/`rows` are uint16. @see docs/wire-reference.md §4.6 */
export interface ResizeMessage {
  type: 'resize';
  cols: number;
  rows: number;
}

/** Client → server: deliver a signal; `signal` with or without `SIG` (`TERM`, `SIGTERM`). @see docs/wire-reference.md §4.6 */
export interface SignalMessage {
  type: 'signal';
  signal: string;
}

/**
 * Server → client: the first text message on create and on every attach.
 * `session_id` is the process id as a decimal string; `created` is unix seconds (integer); `cols`/`rows`
 * are 0 outside TTY mode; `is_owner` is true for the connection that created the session.
 * @see docs/wire-reference.md §4.6 (session_id DISAGREEMENT: a string, as sprites-go needs)
 */
export interface SessionInfoMessage {
  type: 'session_info';
  session_id: string;
  command: string;
  created: number;
  cols: number;
  rows: number;
  is_owner: boolean;
  tty: boolean;
}

/** Server → client: the command exited with `exit_code` (0–255). @see docs/wire-reference.md §4.5 */
export interface ExitMessage {
  type: 'exit';
  exit_code: number;
}

/** A listening port: `port` 1–65535, `address` an opaque string, `pid` the listening process. */
export interface PortInfo {
  port: number;
  address: string;
  pid: number;
}

/** Server → client: a process started listening. @see docs/wire-reference.md §4.6, §6.2 */
export interface PortOpenedMessage extends PortInfo {
  type: 'port_opened';
}

/** Server → client: a process stopped listening. @see docs/wire-reference.md §4.6, §6.2 */
export interface PortClosedMessage extends PortInfo {
  type: 'port_closed';
}

/** Server → client: the first message of a port watch, every port listened on now. @see docs/wire-reference.md §6.2 */
export interface PortListMessage {
  type: 'port_list';
  ports: PortInfo[];
}

/** Client → server, first proxy frame: the target. `host` defaults to `localhost`. @see docs/wire-reference.md §6.1 */
export interface ProxyInitMessage {
  host?: string;
  port: number;
}

/**
 * Server → client: the target was dialled; `target` is `host:port` as {@link joinHostPort} writes it.
 * @see docs/wire-reference.md §6.1
 */
export interface ProxyResponseMessage {
  status: 'connected';
  target: string;
}

/**
 * `host:port` as Go's `net.JoinHostPort` writes it, the form of the proxy's `target`: a host holding a colon (an
 * IPv6 address, `::1`, `fe80::1%eth0`) goes in brackets (`[::1]:8766`); any other host is as given
 * (`127.0.0.1:8766`, `localhost:8766`). sprites-go reads the target back with `net.SplitHostPort`, which refuses
 * an IPv6 address without brackets.
 * @see https://pkg.go.dev/net#JoinHostPort
 */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Client → server, first fs-watch frame. @see docs/wire-reference.md §6.3 */
export interface WatchSubscribeMessage {
  type: 'subscribe';
  paths: string[];
  recursive?: boolean;
  workingDir?: string;
}

/**
 * Server → client fs-watch event, the docs' `WatchMessage`. UNCONFIRMED in every source; extra fields allowed.
 * @see docs/wire-reference.md §6.3
 */
export interface WatchEventMessage {
  type: string;
  path?: string;
  event?: string;
  /** RFC 3339 time. */
  timestamp?: string;
  /** Bytes. */
  size?: number;
  isDir?: boolean;
  message?: string;
  paths?: string[];
  recursive?: boolean;
  workingDir?: string;
}

/** A text message a client may send on an exec or attach socket. */
export type ExecClientMessage = ResizeMessage | SignalMessage;

/** A text message spritzer sends on an exec or attach socket. */
export type ExecServerMessage = SessionInfoMessage | ExitMessage | PortOpenedMessage | PortClosedMessage;

/** A text message spritzer sends on a port watch. */
export type PortWatchMessage = PortListMessage | PortOpenedMessage | PortClosedMessage;

/**
 * The spec's message `name` of each JSON message type (spec/asyncapi.yaml components/messages).
 * Messages with a `type` field use its value as their name.
 */
export const MessageName = {
  resize: 'resize',
  signal: 'signal',
  sessionInfo: 'session_info',
  exit: 'exit',
  portOpened: 'port_opened',
  portClosed: 'port_closed',
  portList: 'port_list',
  proxyInit: 'proxy_init',
  proxyResponse: 'proxy_response',
  watchSubscribe: 'subscribe',
  watchEvent: 'watch_event',
} as const;

const UINT16_MAX = 65535;

/** Smallest terminal dimension (rows or columns) spritzer accepts, in the exec query and in `resize`. */
export const TTY_SIZE_MIN = 1;
/** Largest terminal dimension: uint16 (docs/wire-reference.md §4.6). */
export const TTY_SIZE_MAX = UINT16_MAX;

/**
 * True when `v` is a terminal dimension spritzer accepts: an integer 1–65535. The one check behind the exec query's
 * `rows`/`cols` and the `resize` message, so both refuse a 0×0 terminal alike (docs/limits.md "TTY rows / cols").
 * @deviation what real Sprites do with a 0 size is UNCONFIRMED; spritzer refuses it on both paths.
 */
export function isTtySize(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= TTY_SIZE_MIN && v <= TTY_SIZE_MAX;
}

function parseObject(text: string, onError: () => ProtocolError): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw onError();
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw onError();
  return value as Record<string, unknown>;
}

function isIntIn(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

const policy = (reason: string) => new ProtocolError(CloseCode.PolicyViolation, reason);

/**
 * Parses a client text frame on an exec/attach socket into `resize` or `signal`. Unknown fields are ignored
 * and dropped. Throws `ProtocolError` (close 1008) for non-JSON, a non-object, an unknown `type`, `cols`/`rows`
 * that are not integers 1–65535 ({@link isTtySize}), or a `signal` that is not a non-empty string. The signal name is returned
 * as sent (normalise it with `normalizeSignalName` from signals.ts).
 * @see docs/wire-reference.md §4.6
 */
export function parseExecClientMessage(text: string): ExecClientMessage {
  const obj = parseObject(text, () => policy('text message is not a JSON object'));
  switch (obj.type) {
    case 'resize':
      if (!isTtySize(obj.cols) || !isTtySize(obj.rows)) {
        throw policy(`resize needs integer cols and rows (${TTY_SIZE_MIN}-${TTY_SIZE_MAX})`);
      }
      return { type: 'resize', cols: obj.cols, rows: obj.rows };
    case 'signal':
      if (typeof obj.signal !== 'string' || obj.signal.trim() === '') throw policy('signal needs a signal name');
      return { type: 'signal', signal: obj.signal };
    default:
      throw policy(`unknown message type ${JSON.stringify(obj.type ?? null)}`);
  }
}

/**
 * Parses the proxy's first frame `{host?, port}`; a missing or empty `host` becomes `localhost`.
 * Throws `ProtocolError` with close 1003: reason "Expected JSON initialization message" for non-JSON, a
 * non-object or a non-string `host`; "Invalid port number" for a port that is not an integer 1–65535.
 * @see docs/wire-reference.md §6.1
 */
export function parseProxyInit(text: string): Required<ProxyInitMessage> {
  const unsupported = (reason: string) => new ProtocolError(CloseCode.UnsupportedData, reason);
  const obj = parseObject(text, () => unsupported(CloseReason.ExpectedJsonInit));
  if (obj.host !== undefined && typeof obj.host !== 'string') throw unsupported(CloseReason.ExpectedJsonInit);
  if (!isIntIn(obj.port, 1, UINT16_MAX)) throw unsupported(CloseReason.InvalidPort);
  return { host: obj.host || 'localhost', port: obj.port };
}

/**
 * Parses the fs-watch `subscribe` frame. Throws `ProtocolError` (close 1008) unless `type` is `subscribe`,
 * `paths` is a non-empty array of non-empty strings, and `recursive`/`workingDir` (when present) are a
 * boolean and a string.
 * @see docs/wire-reference.md §6.3
 */
export function parseWatchSubscribe(text: string): WatchSubscribeMessage {
  const obj = parseObject(text, () => policy('subscribe is not a JSON object'));
  if (obj.type !== 'subscribe') throw policy('expected a subscribe message');
  const { paths, recursive, workingDir } = obj;
  if (!Array.isArray(paths) || paths.length === 0 || !paths.every((p) => typeof p === 'string' && p !== '')) {
    throw policy('subscribe needs a non-empty paths array');
  }
  if (recursive !== undefined && typeof recursive !== 'boolean') throw policy('recursive must be a boolean');
  if (workingDir !== undefined && typeof workingDir !== 'string') throw policy('workingDir must be a string');
  return {
    type: 'subscribe',
    paths: paths as string[],
    ...(recursive !== undefined ? { recursive } : {}),
    ...(workingDir !== undefined ? { workingDir } : {}),
  };
}
