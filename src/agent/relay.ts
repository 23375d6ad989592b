/**
 * TCP relays of one host connection: the agent dials `host:port` from inside the sprite's network namespace and
 * moves bytes both ways as DATA frames, with END for a half-close, RESET for a teardown and PAUSE/RESUME for
 * per-relay backpressure. It owns the TCP sockets; it does not frame (it gets a `send` function) or decide what a
 * sprite may reach (the namespace does).
 * @see docs/agent-protocol.md "Relays", docs/wire-reference.md §6.1
 */
import { connect as netConnect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { FrameType } from '../protocol/agent.ts';
import type { WireError } from '../protocol/agent.ts';
import { joinHostPort } from '../protocol/messages.ts';

/** Sends one frame to the host; returns false when the connection is congested. */
export type SendFrame = (type: FrameType, channel: number, payload?: Uint8Array) => boolean;

interface Relay {
  socket: Socket | Duplex;
  /** The host asked for a pause (its reader is congested). */
  hostPaused: boolean;
}

/** The relays of one connection. */
export class Relays {
  private readonly relays = new Map<number, Relay>();
  private congested = false;

  constructor(private readonly send: SendFrame) {}

  /**
   * Dials `host:port` for relay `id`. Resolves once connected; rejects with `{code, message}` (ECONNREFUSED,
   * EHOSTUNREACH, ENOTFOUND, …) when the dial fails. Bytes that arrive later are sent as DATA frames.
   */
  open(id: number, host: string, port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.relays.has(id)) return reject({ code: 'EINVAL', message: `relay ${id} is in use` } satisfies WireError);
      const socket = netConnect({ host, port, allowHalfOpen: true });
      socket.setNoDelay(true);
      const relay: Relay = { socket, hostPaused: false };
      let connected = false;
      socket.once('connect', () => {
        connected = true;
        this.relays.set(id, relay);
        if (this.congested) socket.pause();
        resolve();
      });
      socket.on('data', (d: Buffer) => this.send(FrameType.Data, id, d));
      socket.on('end', () => {
        if (this.relays.has(id)) this.send(FrameType.End, id);
      });
      socket.on('drain', () => {
        if (this.relays.has(id)) this.send(FrameType.Resume, id);
      });
      socket.on('error', (err: NodeJS.ErrnoException) => {
        if (!connected) {
          reject({ code: err.code ?? 'EIO', message: `dial tcp ${joinHostPort(host, port)}: ${err.message}` } satisfies WireError);
          return;
        }
        if (this.relays.delete(id)) this.send(FrameType.Reset, id, Buffer.from(err.message));
      });
      socket.on('close', () => {
        // Both directions ended cleanly: nothing more to say. An unclean close was reported by 'error'.
        this.relays.delete(id);
      });
    });
  }

  /**
   * Registers an already-connected socket (a connection to the in-sprite API socket, an egress proxy connection or
   * DNS exchange) as relay `id`: its bytes go to the host as DATA frames, exactly like a dialled relay's. The caller
   * announces it with an ACCEPT frame.
   */
  adopt(id: number, socket: Socket | Duplex): void {
    const relay: Relay = { socket, hostPaused: false };
    this.relays.set(id, relay);
    if (this.congested) socket.pause();
    socket.on('data', (d: Buffer) => this.send(FrameType.Data, id, d));
    socket.on('end', () => {
      if (this.relays.has(id)) this.send(FrameType.End, id);
    });
    socket.on('drain', () => {
      if (this.relays.has(id)) this.send(FrameType.Resume, id);
    });
    socket.on('error', (err: Error) => {
      if (this.relays.delete(id)) this.send(FrameType.Reset, id, Buffer.from(err.message));
    });
    socket.on('close', () => {
      this.relays.delete(id);
    });
  }

  /** Handles a relay frame from the host (DATA, END, RESET, PAUSE, RESUME). Unknown relays are ignored. */
  onFrame(type: FrameType, id: number, payload: Buffer): void {
    const relay = this.relays.get(id);
    if (!relay) return;
    const { socket } = relay;
    switch (type) {
      case FrameType.Data:
        if (!socket.write(payload)) this.send(FrameType.Pause, id);
        break;
      case FrameType.End:
        socket.end();
        break;
      case FrameType.Reset:
        this.relays.delete(id);
        socket.destroy();
        break;
      case FrameType.Pause:
        relay.hostPaused = true;
        socket.pause();
        break;
      case FrameType.Resume:
        relay.hostPaused = false;
        if (!this.congested) socket.resume();
        break;
      default:
        break;
    }
  }

  /** Pauses (or resumes) reading every relay while the host connection is congested. */
  setCongested(congested: boolean): void {
    this.congested = congested;
    for (const r of this.relays.values()) {
      if (congested) r.socket.pause();
      else if (!r.hostPaused) r.socket.resume();
    }
  }

  /** Destroys every relay (the host connection is gone). */
  closeAll(): void {
    for (const r of this.relays.values()) r.socket.destroy();
    this.relays.clear();
  }
}
