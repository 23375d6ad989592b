/**
 * The ports watch socket (sprites-wire.md §6.2): a `port_list` snapshot first, then `port_opened` /
 * `port_closed` as processes start and stop listening. The in-memory engines never listen on a port, so the
 * snapshot is empty and nothing follows until the client closes.
 */
import type { ChannelHandler } from './router.ts';
import type { PortListMessage } from '../../protocol/messages.ts';

/** Handles one ports/watch socket. */
export const handlePortsWatch: ChannelHandler = (ws, sprite) => {
  const snapshot: PortListMessage = { type: 'port_list', ports: [] };
  ws.send(JSON.stringify(snapshot));
  sprite.touch();
  // Client messages carry no meaning on this channel; they are ignored.
};
