/**
 * The types every WebSocket channel shares with the upgrade router: the socket a channel is handed and the
 * signature of its handler. It holds no behaviour and imports none of the channels, so the router (which
 * imports the channels) and the channels (which implement the signature) never import each other.
 */
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import type { AppContext } from '../context.ts';
import type { Sprite } from '../model/sprites.ts';

/**
 * The socket a channel runs on: a `ws` WebSocket of the server's contained class (ws/contained-socket.ts), so a
 * throw in any of its listeners closes it 1011 instead of reaching the process.
 */
export type ChannelSocket = WebSocket;

/** A channel handler, called after a successful upgrade. */
export type ChannelHandler = (ws: ChannelSocket, sprite: Sprite, req: IncomingMessage, ctx: AppContext) => void;
