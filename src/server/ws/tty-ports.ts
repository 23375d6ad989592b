/**
 * `port_opened` / `port_closed` text messages on a TTY exec socket (docs/wire-reference.md §4.6, F14; docs/wire.md
 * "Frames with a TTY"): while the socket is open, the sprite's listening ports are polled like ports/watch does,
 * and each port that opens or closes after the session started is reported as `{type, port, address, pid}`. It
 * owns that poll and its messages only; the exec frames, `session_info` and `exit` stay in exec.ts.
 */
import type { WebSocket } from 'ws';
import type { PortInfo } from '../../protocol/messages.ts';
import type { ListeningPort, Machine } from '../machines/port.ts';
import { PORTS_POLL_MS } from './ports-watch.ts';

const keyOf = (p: PortInfo) => `${p.address}:${p.port}`;
const toInfo = (p: ListeningPort): PortInfo => ({ port: p.port, address: p.address, pid: p.pid ?? 0 });

/**
 * Reports port changes on TTY socket `ws` until it closes: the first poll is the baseline (nothing is sent for
 * ports already listening), later polls every `pollMs` (default PORTS_POLL_MS, 250 ms) send `port_opened` and
 * `port_closed`. Returns a function that stops the reports before the socket closes (a control op that ended). Machines that never listen (in-memory) send nothing. A failed poll keeps the last list.
 * @deviation real Sprites report ports of the session's own processes; spritzer reports any port of the sprite
 *   that opens or closes while the TTY session is attached (the pid field names the listening process).
 */
export function reportTtyPorts(ws: WebSocket, machine: Pick<Machine, 'listeningPorts'>, pollMs = PORTS_POLL_MS): () => void {
  let known: Map<string, PortInfo> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const send = (message: object) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const poll = async (): Promise<void> => {
    let next: Map<string, PortInfo>;
    try {
      next = new Map((await machine.listeningPorts()).map(toInfo).map((p) => [keyOf(p), p]));
    } catch {
      next = known ?? new Map();
    }
    if (closed) return;
    if (known) {
      for (const [key, p] of next) if (!known.has(key)) send({ type: 'port_opened', ...p });
      for (const [key, p] of known) if (!next.has(key)) send({ type: 'port_closed', ...p });
    }
    known = next;
    timer = setTimeout(() => void poll(), pollMs);
    timer.unref();
  };
  const stop = () => {
    closed = true;
    if (timer) clearTimeout(timer);
    ws.off('close', stop);
  };
  ws.once('close', stop);
  void poll();
  return stop;
}
