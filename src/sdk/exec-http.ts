/**
 * Parses the body of `POST /v1/sprites/{name}/exec` (HTTP exec): `[1]…` / `[2]…` frames concatenated with no
 * length prefixes and a final `[3, code]`. It does not make the request (operations.ts does).
 * @see docs/wire-reference.md §4.10
 */
import { StreamId } from '../protocol/frames.ts';
import { ExecProtocolError } from './errors.ts';

/** The parsed HTTP exec answer: output as UTF-8 text and the exit code 0–255. */
export interface ExecHttpResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * Splits the framed body into stdout, stderr and the exit code. Each chunk as read is taken to start with a
 * stream id (the server writes one frame per chunk); the body must end with the two bytes `[3, code]`.
 * Throws `ExecProtocolError('closed_before_exit')` when it does not, `bad_frame` for an unknown stream id.
 * @deviation the wire has no frame lengths: a proxy that merges chunks could move stderr bytes into stdout;
 *   the exit code (last two bytes) is always exact. The managed-agents guide parses it the same way.
 * @see docs/wire-reference.md §4.10
 */
export async function parseExecHttpBody(body: ReadableStream<Uint8Array> | null | undefined): Promise<ExecHttpResult> {
  const chunks: Uint8Array[] = [];
  const reader = body?.getReader();
  for (;;) {
    const next = reader ? await reader.read() : { done: true as const, value: undefined };
    if (next.done) break;
    if (next.value.length > 0) chunks.push(next.value);
  }
  const tail = lastBytes(chunks, 2);
  if (tail.length < 2 || tail[0] !== StreamId.Exit) {
    throw new ExecProtocolError('closed_before_exit', 'HTTP exec body ended without the exit frame');
  }
  dropLastBytes(chunks, 2);
  const out: Uint8Array[] = [];
  const err: Uint8Array[] = [];
  for (const chunk of chunks) sortChunk(chunk, out, err);
  const text = (parts: Uint8Array[]) => new TextDecoder().decode(concat(parts));
  return { stdout: text(out), stderr: text(err), exitCode: tail[1]! };
}

/** The last `n` bytes across chunks (fewer when the body is shorter). */
function lastBytes(chunks: Uint8Array[], n: number): Uint8Array {
  return concat(chunks).slice(-n);
}

/** Removes the last `n` bytes across chunks, dropping chunks that become empty. */
function dropLastBytes(chunks: Uint8Array[], n: number): void {
  while (n > 0 && chunks.length > 0) {
    const last = chunks.pop()!;
    if (last.length > n) chunks.push(last.subarray(0, last.length - n));
    n -= Math.min(n, last.length);
  }
}

function sortChunk(chunk: Uint8Array, out: Uint8Array[], err: Uint8Array[]): void {
  const id = chunk[0];
  if (id === StreamId.Stdout) out.push(chunk.subarray(1));
  else if (id === StreamId.Stderr) err.push(chunk.subarray(1));
  else throw new ExecProtocolError('bad_frame', `HTTP exec chunk starts with stream id ${String(id)}`);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}
