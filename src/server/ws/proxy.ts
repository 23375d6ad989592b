/**
 * The proxy socket (docs/wire-reference.md §6.1): the client sends `{host, port}`, spritzer dials it through the
 * sprite's Machine (inside the sprite's network), answers `{status:"connected", target}`, then relays
 * raw binary frames both ways. Bad init closes 1003; a dial failure 1011 "Failed to connect to target: …";
 * the upstream ending closes 1001 "upstream closed". It owns the relay, not the dialling. Both directions follow
 * back-pressure: the socket is not read while the dial is under way or while the upstream's buffer is full, and the
 * upstream is not read while the client has more than RELAY_HIGH_WATER_BYTES unsent, so neither a client nor a
 * sprite that stops reading makes spritzer buffer.
 */
import type { WebSocket } from 'ws';
import type { Duplex } from 'node:stream';
import type { ChannelHandler } from './channel.ts';
import type { Sprite } from '../model/sprites.ts';
import { joinHostPort, parseProxyInit } from '../../protocol/messages.ts';
import { CloseCode, CloseReason, ProtocolError } from '../../protocol/close-codes.ts';

/** How long the client has to send its init message, in ms. */
export const PROXY_INIT_TIMEOUT_MS = 10_000;

/** Bytes of upstream output a client may have unsent (`ws.bufferedAmount`) before the upstream is no longer read. */
export const RELAY_HIGH_WATER_BYTES = 1024 * 1024;

/**
 * Writes a client's bytes to an upstream; while the upstream's buffer is full the socket is not read (`ws.pause`),
 * so the client's own TCP window fills instead of spritzer's memory.
 */
export class UpstreamWriter {
  private waiting = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly upstream: Duplex,
  ) {}

  write(data: Buffer): void {
    if (this.upstream.destroyed || this.upstream.write(data) || this.waiting) return;
    this.waiting = true;
    this.ws.pause();
    // A drain, or the upstream going away (a release of a control socket's relay), lets the socket be read again.
    const go = () => {
      this.upstream.off('drain', go).off('close', go);
      this.waiting = false;
      this.ws.resume();
    };
    this.upstream.on('drain', go).on('close', go);
  }
}

/**
 * Dials with the socket not read meanwhile (only what arrived in the same read is kept, in `early`): a client that
 * sends before the dial completes waits on its TCP window. The socket is read again once the dial has settled.
 */
export async function dialPaused<T>(ws: WebSocket, dial: () => Promise<T>): Promise<T> {
  ws.pause();
  try {
    return await dial();
  } finally {
    ws.resume();
  }
}

/** Handles one proxy socket. Binary frames that arrive before the dial completes are kept and sent after. */
export const handleProxy: ChannelHandler = (ws, sprite, _req, ctx) => {
  const { logger } = ctx.deps;
  const initTimer = setTimeout(() => ws.close(CloseCode.UnsupportedData, CloseReason.ExpectedJsonInit), PROXY_INIT_TIMEOUT_MS);
  initTimer.unref();
  let initialised = false;
  let upstream: UpstreamWriter | null = null;
  const early: Buffer[] = [];
  ws.on('message', (data, isBinary) => {
    if (initialised) {
      if (!isBinary) return; // the relay carries binary frames only (§6.1)
      if (upstream) upstream.write(data as Buffer);
      else early.push(data as Buffer);
      return;
    }
    initialised = true;
    clearTimeout(initTimer);
    let target: { host: string; port: number };
    try {
      if (isBinary) throw new ProtocolError(CloseCode.UnsupportedData, CloseReason.ExpectedJsonInit);
      target = parseProxyInit(data.toString());
    } catch (err) {
      const e = err instanceof ProtocolError ? err : new ProtocolError(CloseCode.UnsupportedData, CloseReason.ExpectedJsonInit);
      return ws.close(e.closeCode, e.reason);
    }
    void dialPaused(ws, () => dial(target)).then((conn) => {
      if (!conn) return;
      upstream = new UpstreamWriter(ws, conn);
      sprite.touch();
      relay(ws, conn, target, logger);
      for (const chunk of early.splice(0)) upstream.write(chunk);
    });
  });

  async function dial(target: { host: string; port: number }): Promise<Duplex | null> {
    try {
      return await dialProxyTarget(ws, sprite, target);
    } catch (err) {
      ws.close(CloseCode.InternalError, failedToConnectReason(err));
      return null;
    }
  }
};

/** The 1011 reason of a failed dial, cut to the 123 bytes a close frame allows (§6.1). */
export function failedToConnectReason(err: unknown): string {
  return (CloseReason.FailedToConnectPrefix + (err as Error).message).slice(0, 123);
}

/**
 * Dials `target` inside the sprite (its Machine's network). Resolves `null` (and drops the connection) when the
 * socket closed while dialling; rejects with the dial's error.
 */
export async function dialProxyTarget(
  ws: WebSocket,
  sprite: Pick<Sprite, 'machine'>,
  target: { host: string; port: number },
): Promise<Duplex | null> {
  const conn = await sprite.machine.connect(target.host, target.port);
  if (ws.readyState !== ws.OPEN) {
    conn.destroy();
    return null;
  }
  return conn;
}

/** A running relay between a socket and its upstream. */
export interface ProxyRelay {
  /** Ends the relay without closing the socket (control `release`): the upstream is destroyed. */
  stop(): void;
}

/**
 * Answers `{status:"connected", target}` (`target` in `net.JoinHostPort` form, {@link joinHostPort}), then relays raw
 * bytes upstream → client; `onEnd` runs once when the upstream ends or fails (default: close 1001 "upstream closed",
 * §6.1). The socket closing destroys the upstream.
 */
export function relay(
  ws: WebSocket,
  upstream: Duplex,
  target: { host: string; port: number },
  logger: { debug: (o: object, m: string) => void },
  onEnd: () => void = () => ws.close(CloseCode.GoingAway, CloseReason.UpstreamClosed),
): ProxyRelay {
  let live = true;
  const end = () => {
    if (!live) return;
    live = false;
    onEnd();
  };
  ws.send(JSON.stringify({ status: 'connected', target: joinHostPort(target.host, target.port) }));
  // Read the upstream again once the client has taken enough of what was sent.
  const sent = () => {
    if (upstream.isPaused() && ws.bufferedAmount < RELAY_HIGH_WATER_BYTES) upstream.resume();
  };
  upstream.on('data', (chunk: Buffer) => {
    if (!live || ws.readyState !== ws.OPEN) return;
    ws.send(chunk, { binary: true }, sent);
    if (ws.bufferedAmount >= RELAY_HIGH_WATER_BYTES) upstream.pause();
  });
  upstream.on('end', end);
  upstream.on('error', (err) => {
    logger.debug({ err }, 'proxy upstream error');
    end();
  });
  const destroy = () => upstream.destroy();
  ws.once('close', destroy);
  return {
    stop() {
      live = false;
      ws.off('close', destroy);
      upstream.destroy();
    },
  };
}
