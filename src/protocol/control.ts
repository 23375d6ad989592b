/**
 * The control-socket envelope codec: text frames `control:` + JSON (`op.start`, `op.ack`, `op.complete`,
 * `op.error`), the bare `{"type":"release"}`, and the sprites-go bare-JSON dialects (proxy `start`, `fs.*`
 * ops with URL-encoded args). It does not run operations; the ws control handler does.
 * @see docs/wire-reference.md §5.2, §5.3; spec/asyncapi.yaml channel `control`
 */
import { CloseCode, ProtocolError } from './close-codes.ts';
import { clampExitCode } from './frames.ts';

/** The literal prefix of every control envelope frame. */
export const CONTROL_PREFIX = 'control:';

/** `op.start` arguments: values as URL query values (strings or arrays of strings). */
export type ControlArgs = Record<string, string | string[]>;

/** Client → server: start `op` (`exec`, `proxy`). */
export interface ControlOpStart {
  type: 'op.start';
  op: string;
  id?: string;
  args?: ControlArgs;
}

/** Server → client: the operation was accepted (SDKs ignore it). */
export interface ControlOpAck {
  type: 'op.ack';
  op?: string;
  id?: string;
  args?: Record<string, unknown>;
}

/** Server → client: the operation ended; `args.exitCode` is an integer 0–255. */
export interface ControlOpComplete {
  type: 'op.complete';
  op?: string;
  id?: string;
  args: { exitCode: number } & Record<string, unknown>;
}

/** Server → client: the operation failed or was refused (busy, not active); `args.error` says why. */
export interface ControlOpError {
  type: 'op.error';
  op?: string;
  id?: string;
  args: { error: string } & Record<string, unknown>;
}

/** Any control envelope. @see docs/wire-reference.md §5.2 */
export type ControlEnvelope = ControlOpStart | ControlOpAck | ControlOpComplete | ControlOpError;

/** Bare JSON (no prefix) sprites-go sends after each operation. */
export interface ControlRelease {
  type: 'release';
}

/** Encodes an envelope as the text frame `control:{…}`. @see docs/wire-reference.md §5.2 */
export function encodeControl(envelope: ControlEnvelope): string {
  return CONTROL_PREFIX + JSON.stringify(envelope);
}

const bad = (reason: string) => new ProtocolError(CloseCode.PolicyViolation, reason);

function parseJsonObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw bad(`${what} is not valid JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(`${what} is not a JSON object`);
  return value as Record<string, unknown>;
}

function optionalString(obj: Record<string, unknown>, key: string): string | undefined {
  const v = obj[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw bad(`control ${key} must be a string`);
  return v;
}

function asArg(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/**
 * Normalises `op.start` args like URL query values: strings stay, arrays keep their string-like items,
 * numbers and booleans become strings, anything else is dropped.
 * @deviation the in-VM server dropped numbers and booleans; spritzer stringifies them (more tolerant).
 */
function normaliseArgs(raw: unknown): ControlArgs {
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad('op.start args must be an object');
  const out: ControlArgs = {};
  for (const [key, value] of Object.entries(raw)) {
    if (Array.isArray(value)) out[key] = value.map(asArg).filter((s): s is string => s !== undefined);
    else {
      const s = asArg(value);
      if (s !== undefined) out[key] = s;
    }
  }
  return out;
}

/** The optional `op` and `id` of an envelope, in wire order. */
function common(obj: Record<string, unknown>): { op?: string; id?: string } {
  const op = optionalString(obj, 'op');
  const id = optionalString(obj, 'id');
  return { ...(op !== undefined ? { op } : {}), ...(id !== undefined ? { id } : {}) };
}

/**
 * Decodes a `control:`-prefixed text frame. Returns `null` when `text` does not start with the prefix (the
 * frame then belongs to the running operation). Throws `ProtocolError` (close 1008) for bad JSON, an unknown
 * `type`, `op.start` without `op`, `op.complete` without an integer `args.exitCode`, or `op.error` without a
 * string `args.error`.
 * @see docs/wire-reference.md §5.2
 */
export function decodeControl(text: string): ControlEnvelope | null {
  if (!text.startsWith(CONTROL_PREFIX)) return null;
  const obj = parseJsonObject(text.slice(CONTROL_PREFIX.length), 'control envelope');
  const args = obj.args;
  switch (obj.type) {
    case 'op.start': {
      const { op, id } = common(obj);
      if (!op) throw bad('op.start needs an op');
      return { type: 'op.start', op, ...(id !== undefined ? { id } : {}), args: normaliseArgs(args) };
    }
    case 'op.ack':
      return typeof args === 'object' && args !== null && !Array.isArray(args)
        ? { type: 'op.ack', ...common(obj), args: args as Record<string, unknown> }
        : { type: 'op.ack', ...common(obj) };
    case 'op.complete': {
      const a = (args ?? {}) as Record<string, unknown>;
      if (typeof a.exitCode !== 'number' || !Number.isInteger(a.exitCode)) {
        throw bad('op.complete needs an integer args.exitCode');
      }
      return { type: 'op.complete', ...common(obj), args: { ...a, exitCode: a.exitCode } };
    }
    case 'op.error': {
      const a = (args ?? {}) as Record<string, unknown>;
      if (typeof a.error !== 'string') throw bad('op.error needs a string args.error');
      return { type: 'op.error', ...common(obj), args: { ...a, error: a.error } };
    }
    default:
      throw bad(`unknown control type ${JSON.stringify(obj.type ?? null)}`);
  }
}

/** What a client text frame on the control socket is. @see docs/wire-reference.md §5.2, §5.3 */
export type ControlClientText =
  /** A `control:`-prefixed envelope. */
  | { kind: 'envelope'; envelope: ControlEnvelope }
  /** Bare `{"type":"release"}`. */
  | { kind: 'release' }
  /** sprites-go bare proxy start `{"type":"start","operation":"proxy","params":{host,port,keep_alive}}`. */
  | { kind: 'proxy_start'; host: string; port: number; keepAlive: boolean }
  /** sprites-go bare `{"type":"op.start","op":"fs.*","args":"<url-encoded>"}`. */
  | { kind: 'fs_op'; op: string; args: URLSearchParams }
  /** Anything else: a text frame of the running operation (`resize`, `signal`, a proxy init). */
  | { kind: 'op_text'; text: string };

/**
 * Classifies a client text frame on the control socket. Only prefixed frames can throw (see
 * {@link decodeControl}); a bare proxy start with a bad port throws `ProtocolError` (close 1003).
 * @see docs/wire-reference.md §5.2, §5.3
 */
export function classifyControlText(text: string): ControlClientText {
  const envelope = decodeControl(text);
  if (envelope) return { kind: 'envelope', envelope };
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch {
    return { kind: 'op_text', text };
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return { kind: 'op_text', text };
  const o = obj as Record<string, unknown>;
  if (o.type === 'release') return { kind: 'release' };
  if (o.type === 'start' && o.operation === 'proxy') {
    const p = (typeof o.params === 'object' && o.params !== null ? o.params : {}) as Record<string, unknown>;
    const port = p.port;
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
      throw new ProtocolError(CloseCode.UnsupportedData, 'Invalid port number');
    }
    const host = typeof p.host === 'string' && p.host !== '' ? p.host : 'localhost';
    return { kind: 'proxy_start', host, port, keepAlive: p.keep_alive === true };
  }
  if (o.type === 'op.start' && typeof o.op === 'string' && o.op.startsWith('fs.') && typeof o.args === 'string') {
    return { kind: 'fs_op', op: o.op, args: new URLSearchParams(o.args) };
  }
  return { kind: 'op_text', text };
}

/** `control:{"type":"op.ack","op":…}`. */
export function encodeOpAck(op?: string): string {
  return encodeControl({ type: 'op.ack', ...(op ? { op } : {}) });
}

/** `control:{"type":"op.complete","args":{"exitCode":N}}`; N clamped to 0–255 like the exit frame. */
export function encodeOpComplete(exitCode: number, op?: string): string {
  return encodeControl({ type: 'op.complete', ...(op ? { op } : {}), args: { exitCode: clampExitCode(exitCode) } });
}

/** `control:{"type":"op.error","args":{"error":…}}`. */
export function encodeOpError(error: string, op?: string): string {
  return encodeControl({ type: 'op.error', ...(op ? { op } : {}), args: { error } });
}
