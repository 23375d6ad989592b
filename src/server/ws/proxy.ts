/**
 * The proxy socket (sprites-wire.md §6.1): the client sends `{host, port}`, spritzer dials it through the
 * engine's `connect` hook (inside the sprite's network), answers `{status:"connected", target}`, then relays
 * raw binary frames both ways. Bad init closes 1003; a dial failure 1011 "Failed to connect to target: …";
 * the upstream ending closes 1001 "upstream closed". It owns the relay, not the dialling.
 */
import type { WebSocket } from 'ws';
import type { Duplex } from 'node:stream';
import type { ChannelHandler } from './router.ts';
import { parseProxyInit } from '../../protocol/messages.ts';
import { CloseCode, CloseReason, ProtocolError } from '../../protocol/close-codes.ts';

/** How long the client has to send its init message, in ms. */
export const PROXY_INIT_TIMEOUT_MS = 10_000;

/** Handles one proxy socket. */
export const handleProxy: ChannelHandler = (ws, sprite, _req, ctx) => {
  const { engine, logger } = ctx.deps;
  const initTimer = setTimeout(() => ws.close(CloseCode.UnsupportedData, CloseReason.ExpectedJsonInit), PROXY_INIT_TIMEOUT_MS);
  initTimer.unref();
  ws.once('message', async (data, isBinary) => {
    clearTimeout(initTimer);
    let target: { host: string; port: number };
    try {
      if (isBinary) throw new ProtocolError(CloseCode.UnsupportedData, CloseReason.ExpectedJsonInit);
      target = parseProxyInit(data.toString());
    } catch (err) {
      const e = err instanceof ProtocolError ? err : new ProtocolError(CloseCode.UnsupportedData, CloseReason.ExpectedJsonInit);
      return ws.close(e.closeCode, e.reason);
    }
    let upstream: Duplex;
    try {
      if (!engine.connect) throw new Error(`dial tcp ${target.host}:${target.port}: connect: connection refused`);
      upstream = await engine.connect(sprite.ctx, target.host, target.port);
    } catch (err) {
      const reason = (CloseReason.FailedToConnectPrefix + (err as Error).message).slice(0, 123);
      return ws.close(CloseCode.InternalError, reason);
    }
    sprite.touch();
    relay(ws, upstream, `${target.host}:${target.port}`, logger);
  });
};

function relay(ws: WebSocket, upstream: Duplex, target: string, logger: { debug: (o: object, m: string) => void }): void {
  ws.send(JSON.stringify({ status: 'connected', target }));
  ws.on('message', (data, isBinary) => {
    if (isBinary) upstream.write(data as Buffer);
  });
  upstream.on('data', (chunk: Buffer) => {
    if (ws.readyState === ws.OPEN) ws.send(chunk, { binary: true });
  });
  upstream.on('end', () => ws.close(CloseCode.UpstreamClosed, CloseReason.UpstreamClosed));
  upstream.on('error', (err) => {
    logger.debug({ err }, 'proxy upstream error');
    ws.close(CloseCode.UpstreamClosed, CloseReason.UpstreamClosed);
  });
  ws.on('close', () => upstream.destroy());
}
