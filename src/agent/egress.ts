/**
 * The in-sprite end of the egress gate (`--sandbox-egress gate`): a TCP listener (the HTTP/CONNECT proxy) and a UDP
 * listener (the DNS resolver) on the sprite's loopback. It owns those two sockets and turns each proxy connection
 * and each DNS query into a byte stream that the agent hands to the host as a relay (ACCEPT frame). It parses
 * nothing and decides nothing: spritzer speaks HTTP and DNS on those streams and applies the network policy.
 * @see docs/agent-protocol.md "Egress", docs/sandbox.md "Egress"
 */
import { createServer, type Server, type Socket } from 'node:net';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { Duplex } from 'node:stream';

/** Where the gate listens inside the sprite (the `egress` CALL's arguments). */
export interface EgressListenOptions {
  /** Loopback address to bind (default `127.0.0.1`). */
  host?: string;
  /** TCP port of the HTTP proxy (plain forward and CONNECT). */
  proxyPort: number;
  /** UDP port of the DNS resolver (53 for `/etc/resolv.conf`; the agent keeps CAP_NET_BIND_SERVICE). */
  dnsPort: number;
}

/** The ACCEPT listener names the host dispatches on. */
export type EgressListener = 'egress-proxy' | 'egress-dns';

/** Largest DNS message taken from a sprite (RFC 1035 §4.2.1 UDP size, raised for EDNS0). */
const MAX_DNS_BYTES = 4096;

/**
 * One DNS exchange as a Duplex: it reads as the query (then END), and what the host writes before its END goes
 * back to the asker as one datagram. Nothing is sent when the host resets it.
 */
class DatagramExchange extends Duplex {
  private readonly reply: Buffer[] = [];

  constructor(
    query: Buffer,
    private readonly answer: (msg: Buffer) => void,
  ) {
    super({ allowHalfOpen: true });
    this.push(query);
    this.push(null);
  }

  override _read(): void {
    /* the query was pushed whole */
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    const size = this.reply.reduce((n, b) => n + b.byteLength, 0) + chunk.byteLength;
    if (size > MAX_DNS_BYTES) return cb(new Error('DNS answer too large'));
    this.reply.push(chunk);
    cb();
  }

  override _final(cb: (err?: Error | null) => void): void {
    if (this.reply.length) this.answer(Buffer.concat(this.reply));
    cb();
  }
}

/** The gate's two listeners inside one sprite. */
export class EgressListeners {
  private constructor(
    private readonly tcp: Server,
    private readonly udp: UdpSocket,
    /** What was asked for (the CALL's arguments, kept to answer a repeated CALL). */
    readonly options: EgressListenOptions,
  ) {}

  /**
   * Binds both listeners; every proxy connection and DNS query goes to `accept` with its listener name. Rejects
   * with the bind error (EADDRINUSE, EACCES) and leaves nothing bound.
   */
  static async start(opts: EgressListenOptions, accept: (listener: EgressListener, conn: Duplex) => void): Promise<EgressListeners> {
    const host = opts.host ?? '127.0.0.1';
    const tcp = createServer({ allowHalfOpen: true }, (socket: Socket) => {
      socket.setNoDelay(true);
      accept('egress-proxy', socket);
    });
    await new Promise<void>((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(opts.proxyPort, host, () => resolve());
    });
    const udp = createSocket('udp4');
    udp.on('message', (msg, rinfo) => {
      if (msg.byteLength > MAX_DNS_BYTES) return;
      accept('egress-dns', new DatagramExchange(msg, (reply) => udp.send(reply, rinfo.port, rinfo.address)));
    });
    try {
      await new Promise<void>((resolve, reject) => {
        udp.once('error', reject);
        udp.bind(opts.dnsPort, host, () => resolve());
      });
    } catch (err) {
      tcp.close();
      throw err;
    }
    udp.on('error', () => undefined);
    tcp.on('error', () => undefined);
    return new EgressListeners(tcp, udp, { ...opts, host });
  }

  /** Closes both listeners (open proxy connections are the relays' to end). */
  close(): void {
    this.tcp.close();
    this.udp.close();
  }
}
