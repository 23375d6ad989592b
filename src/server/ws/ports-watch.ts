/**
 * The ports watch socket (docs/wire-reference.md §6.2): a `port_list` snapshot first, then `port_opened` /
 * `port_closed` as processes start and stop listening, found by polling the sprite's Machine
 * (`listeningPorts`) every `PORTS_POLL_MS`. In-memory machines never listen, so their list stays empty.
 * It owns the socket and the diffing, not the discovery of ports.
 */
import type { ChannelHandler } from './channel.ts';
import type { PortInfo, PortListMessage } from '../../protocol/messages.ts';
import type { ListeningPort } from '../machines/port.ts';

/** How often the machine's listening ports are polled, in ms: a change is reported within 500 ms. */
export const PORTS_POLL_MS = 250;

function toPortInfo(p: ListeningPort): PortInfo {
  return { port: p.port, address: p.address, pid: p.pid ?? 0 };
}

function keyOf(p: PortInfo): string {
  return `${p.address}:${p.port}`;
}

/** Handles one ports/watch socket. Client messages carry no meaning on this channel and are ignored. */
export const handlePortsWatch: ChannelHandler = (ws, sprite, _req, ctx) => {
  let known = new Map<string, PortInfo>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  sprite.touch();
  const send = (message: object) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };

  async function poll(first: boolean): Promise<void> {
    let ports: PortInfo[];
    try {
      ports = (await sprite.machine.listeningPorts()).map(toPortInfo);
    } catch (err) {
      ctx.deps.logger.debug({ err }, 'ports watch poll failed');
      ports = [...known.values()];
    }
    if (closed) return;
    const next = new Map(ports.map((p) => [keyOf(p), p]));
    if (first) {
      const snapshot: PortListMessage = { type: 'port_list', ports };
      send(snapshot);
    } else {
      for (const [key, p] of next) if (!known.has(key)) send({ type: 'port_opened', ...p });
      for (const [key, p] of known) if (!next.has(key)) send({ type: 'port_closed', ...p });
    }
    known = next;
    timer = setTimeout(() => void poll(false), PORTS_POLL_MS);
    timer.unref();
  }

  ws.on('close', () => {
    closed = true;
    if (timer) clearTimeout(timer);
  });
  void poll(true);
};
