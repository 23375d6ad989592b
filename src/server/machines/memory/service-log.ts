/**
 * A service's log on an in-memory machine: the machine, which runs the service's command in spritzer's process,
 * appends its output as log text (protocol/service-log.ts) to the log file in the sprite's VFS, and hands it to the
 * caller's `io` only while tapped — what the agent does inside a real sprite. It owns the batching of those appends.
 * @see src/protocol/agent.ts `ProcessSpec.log`, docs/limits.md (a service's output waiting for its log)
 */
import { ServiceLogLines } from '../../../protocol/service-log.ts';
import type { ExecIO, ExecProcess, MachineFs } from '../port.ts';
import type { EngineProcess } from './engine.ts';

/**
 * Bytes of a service's output that may wait for its log while one append is under way; output past it is not
 * logged (the log then says how many bytes it missed), so a service that writes faster than a VFS append (which
 * copies the file) takes no more of spritzer's memory than this. Tapped output still reaches `io` whole.
 */
export const LOG_PENDING_MAX_BYTES = 1024 * 1024;

/** Output waiting for the next append. */
interface PendingLog {
  chunks: Uint8Array[];
  /** Bytes in `chunks`. */
  bytes: number;
  /** Bytes that did not fit (LOG_PENDING_MAX_BYTES) and will not be logged. */
  dropped: number;
}

/**
 * Starts a command whose output goes to the log `log.path` in `fs` (created when missing, never through a symbolic
 * link) and, while tapped, to `io` too. `start` starts the engine's command with the io it is given. The exit
 * resolves once every line, the last unterminated one included, was appended. An append that fails (the sprite's
 * own processes made the path unwritable, a full disk) drops that output: it is not the service's failure.
 */
export function startLogged(fs: MachineFs, log: { path: string; tap: boolean }, io: ExecIO, start: (io: ExecIO) => EngineProcess): ExecProcess {
  let tapped = log.tap;
  const lines = new ServiceLogLines();
  const encoder = new TextEncoder();
  let writes: Promise<void> = Promise.resolve();
  let pending: PendingLog | undefined;
  const queue = (write: () => Promise<unknown>): void => {
    writes = writes.then(write).then(() => undefined, () => undefined);
  };
  const append = (text: string): void => {
    if (text === '') return;
    const data = encoder.encode(text);
    if (pending) {
      if (pending.bytes + data.length > LOG_PENDING_MAX_BYTES) pending.dropped += data.length;
      else {
        pending.chunks.push(data);
        pending.bytes += data.length;
      }
      return;
    }
    const next: PendingLog = { chunks: [data], bytes: data.length, dropped: 0 };
    pending = next;
    queue(() => {
      pending = undefined;
      if (next.dropped > 0) next.chunks.push(encoder.encode(`[spritzer] ${next.dropped} bytes of output were not logged: the service wrote faster than its log could be written\n`));
      return fs.writeFile(log.path, Buffer.concat(next.chunks), { append: true, mkdirParents: true, noFollow: true });
    });
  };
  // The log exists from the first start, empty until the service writes.
  queue(() => fs.stat(log.path).catch(() => fs.writeFile(log.path, new Uint8Array(0), { mkdirParents: true, noFollow: true })));
  const proc = start({
    stdout: (data) => {
      append(lines.push('stdout', data));
      if (tapped) io.stdout(data);
    },
    stderr: (data) => {
      append(lines.push('stderr', data));
      if (tapped) io.stderr(data);
    },
  });
  const exit = proc.exit.then(async (code) => {
    append(lines.flush());
    await writes;
    return code;
  });
  return withTap(proc, (on) => void (tapped = on), exit);
}

/**
 * `proc` as the port's process: every member delegates to it (it may be a class instance), `tap` is `tap` and the
 * exit `exit` (default its own).
 */
export function withTap(proc: EngineProcess, tap: (on: boolean) => void, exit: Promise<number> = proc.exit): ExecProcess {
  return {
    pid: proc.pid,
    exit,
    writeStdin: (data) => proc.writeStdin(data),
    endStdin: () => proc.endStdin(),
    resize: (cols, rows) => proc.resize(cols, rows),
    signal: (name) => proc.signal(name),
    tap,
  };
}
