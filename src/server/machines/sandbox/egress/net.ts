/**
 * The "outside" the egress gate reaches: how a name resolves and how an address is dialled, injectable so tests
 * play the internet with a loopback server, and whether an address is one no sprite may ever reach. It owns neither policy nor HTTP/DNS parsing (gate.ts does).
 * @see docs/wire-reference.md §10, docs/sandbox.md "Egress"
 */
import { promises as dns } from 'node:dns';
import { connect } from 'node:net';
import { isPublicUnicast } from './public-address.ts';
import type { Duplex } from 'node:stream';

/** The gate's view of the outside network. */
export interface EgressNet {
  /**
   * The addresses `name` resolves to (IPv4 and IPv6, in order of preference). Rejects with an Error whose `code`
   * is `ENOTFOUND` for a name that does not exist (any other code: a failed lookup).
   */
  resolve(name: string): Promise<string[]>;
  /** Opens a TCP connection to `address:port`; rejects with the dial error (`ECONNREFUSED`, `ETIMEDOUT`, …). */
  dial(address: string, port: number): Promise<Duplex>;
}

/** The host's resolver (getaddrinfo, as `dns.lookup`) and TCP stack: what `--sandbox-egress gate` uses outside tests. */
export const systemNet: EgressNet = {
  async resolve(name) {
    const found = await dns.lookup(name, { all: true, verbatim: true });
    return found.map((a) => a.address);
  },
  dial(address, port) {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: address, port, allowHalfOpen: true });
      socket.once('connect', () => {
        socket.off('error', reject);
        socket.setNoDelay(true);
        resolve(socket);
      });
      socket.once('error', reject);
    });
  },
};

/**
 * Whether `address` (an IPv4 or IPv6 literal) lies where no sprite may reach: anything but public unicast, the
 * host's own addresses included (public-address.ts). Anything not an IP is blocked.
 * @see docs/wire-reference.md §10.1 ("private and loopback ranges are always blocked"), RFC 6890
 */
export function isAlwaysBlocked(address: string): boolean {
  return !isPublicUnicast(address);
}
