/**
 * The sprites-go filesystem operations over the control socket (docs/wire-reference.md §5.3; sprites-go
 * `filesystem_control.go`): `fs.read` … `fs.rename` with `args` a URL-encoded string, each running the HTTP fs
 * API's operation (operations/fs.ts), so results and errors are the HTTP ones, and the op that holds the socket
 * while one runs. The socket's state machine is control.ts's.
 */
import type { MachineFs } from '../machines/port.ts';
import { VfsError } from '../machines/port.ts';
import { fsErrorBody } from '../http/errors.ts';
import { chmodFileOp, chownFileOp, copyFileOp, deleteFileOp, listFilesOp, openFileRead, renameFileOp, writeFileOp } from '../operations/fs.ts';
import { ControlErrorCode, type ControlHost, type ControlOp } from './control-op.ts';

/** The `fs.*` ops the control socket runs. */
export const CONTROL_FS_OPS = ['fs.read', 'fs.write', 'fs.list', 'fs.stat', 'fs.delete', 'fs.chmod', 'fs.chown', 'fs.copy', 'fs.rename'] as const;

/** What an fs op needs of its socket: a way to send frames, and (for `fs.write`) the client's next binary frame. */
export interface ControlFsIo {
  /** Sends one frame: text for a string, binary for bytes. */
  send(frame: string | Uint8Array): void;
  /**
   * Sends `chunks` as ONE binary message, a fragment each (RFC 6455 §5.4: the client reads one message), each only
   * once the previous one has left for the socket; resolves after the final fragment, rejects when the socket closed.
   */
  sendMessage(chunks: AsyncIterable<Uint8Array>): Promise<void>;
  /** Resolves with the client's next binary frame; rejects when the socket closes first. */
  body(): Promise<Uint8Array>;
}

/** A bad argument: answered as an EINVAL fs error whose message names the argument. */
class ArgError extends Error {
  constructor(
    message: string,
    readonly path = '',
  ) {
    super(message);
  }
}

/**
 * Runs the `fs.*` op `op` with `args` on `fs` and sends its reply frames through `io`. Resolves when the last
 * frame is sent; every refusal (bad args, a `VfsError`, an unknown `fs.` op) is an `op.error` frame. Throws only
 * for a fault that is not the client's (the caller answers it as an internal error).
 *
 * Framing, all bare JSON (sprites-go skips `control:`-prefixed frames when it waits for the end):
 * - success: the HTTP result body as one text frame (`fs.read`: `{path, size}`, then the bytes as one binary
 *   message, streamed in 1 MiB fragments so that a file of any size costs spritzer one chunk of memory; exactly
 *   `size` bytes, the size when the read began), then `{"type":"op.complete","op":…,"args":{"exitCode":0}}`;
 * - failure: one text frame holding both the HTTP fs error body and the `op.error` envelope ({@link fsOpError}):
 *   sprites-go returns as soon as it reads an error body, so nothing may follow it on its pooled socket.
 * `fs.write` takes the file's content from the client's first binary frame after the `op.start`.
 * Arguments as sprites-go sends them: `workingDir` (default `/`, as HTTP), `mode` (octal), `mkdirParents`
 * (default **true**: sprites-go sends it only as `false`), `recursive`, `uid`, `gid`; `asRoot` and
 * `preserveAttrs` are accepted and have the HTTP API's effect (none: fs ops run as root already).
 * @deviation `start`/`end` (a byte range of `fs.read`) are refused with EINVAL: their semantics are
 *   unconfirmed, and a silently wrong slice is worse than a loud refusal (docs/fidelity.md).
 */
export async function runControlFsOp(io: ControlFsIo, fs: MachineFs, op: string, args: URLSearchParams): Promise<void> {
  const fail = (error: string, code: string, path: string, opCode: string = ControlErrorCode.Failed) => io.send(fsOpError(op, error, code, path, opCode));
  try {
    const result = await dispatch(io, fs, op, args);
    if (result === undefined) {
      return fail(`unknown operation ${JSON.stringify(op)} (supported: ${CONTROL_FS_OPS.join(', ')})`, 'EINVAL', '', ControlErrorCode.NotFound);
    }
    io.send(JSON.stringify(result.json));
    if (result.data) await io.sendMessage(result.data);
    io.send(JSON.stringify({ type: 'op.complete', op, args: { exitCode: 0 } }));
  } catch (err) {
    if (err instanceof VfsError) {
      const body = fsErrorBody(err);
      return fail(body.error, body.code, body.path);
    }
    if (err instanceof ArgError) return fail(err.message, 'EINVAL', err.path);
    throw err;
  }
}

/**
 * An fs op's `op.error` frame in sprites-go's form: the HTTP fs error body `{error, code, path}` and the control
 * envelope's `args {error, code}` in one bare JSON text frame (`opCode` is the `op.*` code, default `op.failed`).
 */
export function fsOpError(op: string, error: string, code: string, path: string, opCode: string = ControlErrorCode.Failed): string {
  return JSON.stringify({ type: 'op.error', op, error, code, path, args: { error, code: opCode } });
}

/**
 * Runs the `fs.*` op `op` on the control socket `host`: its frames, then the socket is free again. Other
 * messages meanwhile wait (as while an exec starts); an `fs.write` waiting for its content re-arms the idle timer,
 * so a client that never sends it is closed as an idle socket. A fault that is not the client's is answered as
 * an `EIO` internal error.
 */
export function startFsOp(host: ControlHost, op: string, args: URLSearchParams): void {
  const fsOp = new FsOp(host);
  host.begin(fsOp, true);
  void fsOp.run(op, args);
}

/** An fs op holds every client message until it ends, except the binary frame an `fs.write` waits for. */
class FsOp implements ControlOp {
  private body: { resolve: (bytes: Uint8Array) => void; reject: (err: Error) => void } | undefined;

  constructor(private readonly host: ControlHost) {}

  async run(op: string, args: URLSearchParams): Promise<void> {
    const { host } = this;
    const io: ControlFsIo = {
      send: (frame) => host.reply(frame),
      sendMessage: (chunks) => host.replyMessage(chunks),
      body: () =>
        new Promise<Uint8Array>((resolve, reject) => {
          this.body = { resolve, reject };
          host.armIdle();
        }),
    };
    try {
      host.sprite.touch();
      await runControlFsOp(io, host.sprite.machine.fs, op, args);
    } catch (err) {
      if (!host.holds(this)) return; // the socket closed
      host.logger.error({ err, op }, 'control fs op failed');
      host.reply(fsOpError(op, 'internal error', 'EIO', ''));
    }
    host.end(this);
  }

  takeHeld(bytes: Buffer): boolean {
    if (!this.body) return false;
    const { resolve } = this.body;
    this.body = undefined;
    this.host.stopIdle();
    resolve(bytes);
    return true;
  }

  closed(): void {
    this.body?.reject(new Error('the control socket closed before the fs.write content arrived'));
  }

  // Never called: the socket holds every client message while an fs op runs.
  text(): void {}
  binary(): void {}
  release(): void {}
}

/** The op's result body (and `fs.read`'s bytes), or undefined for an op that is not one of {@link CONTROL_FS_OPS}. */
async function dispatch(io: ControlFsIo, fs: MachineFs, op: string, args: URLSearchParams): Promise<{ json: object; data?: AsyncIterable<Uint8Array> } | undefined> {
  const a = argReader(args);
  const workingDir = a.optional('workingDir');
  switch (op) {
    case 'fs.read': {
      if (args.has('start') || args.has('end')) {
        throw new ArgError('byte ranges (start/end) on fs.read are not supported by spritzer; read the whole file', a.required('path'));
      }
      const { path, first, rest } = await openFileRead(fs, { path: a.required('path'), workingDir });
      // The size goes before the bytes: the file's size as the read begins, and exactly that many bytes follow.
      const size = rest ? (await fs.stat(path)).size : first.byteLength;
      return { json: { path, size }, data: upTo(size, first, rest) };
    }
    case 'fs.write': {
      const q = { path: a.required('path'), workingDir, mode: a.optional('mode'), mkdirParents: a.bool('mkdirParents') ?? true };
      return { json: await writeFileOp(fs, q, await io.body()) };
    }
    case 'fs.list':
    case 'fs.stat':
      return { json: await listFilesOp(fs, { path: a.optional('path') ?? '.', workingDir, recursive: a.bool('recursive') }) };
    case 'fs.delete':
      return { json: await deleteFileOp(fs, { path: a.required('path'), workingDir, recursive: a.bool('recursive') }) };
    case 'fs.chmod':
      return { json: await chmodFileOp(fs, { path: a.required('path'), workingDir, mode: a.required('mode'), recursive: a.bool('recursive') }) };
    case 'fs.chown':
      return { json: await chownFileOp(fs, { path: a.required('path'), workingDir, uid: a.id('uid'), gid: a.id('gid'), recursive: a.bool('recursive') }) };
    case 'fs.copy':
      return { json: await copyFileOp(fs, { source: a.required('source'), dest: a.required('dest'), workingDir, recursive: a.bool('recursive') }) };
    case 'fs.rename':
      return { json: await renameFileOp(fs, { source: a.required('source'), dest: a.required('dest'), workingDir }) };
    default:
      return undefined;
  }
}

/** `first`, then `rest`'s chunks, cut so that `size` bytes in all are yielded (fewer when the file shrank). */
async function* upTo(size: number, first: Uint8Array, rest: AsyncIterable<Uint8Array> | undefined): AsyncIterable<Uint8Array> {
  async function* chunks(): AsyncIterable<Uint8Array> {
    yield first;
    if (rest) yield* rest;
  }
  let left = size;
  for await (const chunk of chunks()) {
    if (left <= 0) return;
    const cut = chunk.byteLength > left ? chunk.subarray(0, left) : chunk;
    left -= cut.byteLength;
    yield cut;
  }
}

/** Typed reads of URL-encoded args, throwing {@link ArgError} with the argument's name. */
function argReader(args: URLSearchParams) {
  return {
    optional: (name: string): string | undefined => args.get(name) ?? undefined,
    required(name: string): string {
      const value = args.get(name);
      if (value === null || value === '') throw new ArgError(`missing argument ${JSON.stringify(name)}`);
      return value;
    },
    bool(name: string): boolean | undefined {
      const value = args.get(name);
      if (value === null) return undefined;
      if (value === 'true' || value === 'false') return value === 'true';
      throw new ArgError(`argument ${JSON.stringify(name)} must be true or false, got ${JSON.stringify(value.slice(0, 64))}`);
    },
    id(name: string): number | null {
      const value = args.get(name);
      if (value === null) return null;
      if (/^\d{1,10}$/.test(value) && Number(value) <= 0xffffffff) return Number(value);
      throw new ArgError(`argument ${JSON.stringify(name)} must be a non-negative integer, got ${JSON.stringify(value.slice(0, 64))}`);
    },
  };
}
