/**
 * The "outside" the egress gate reaches: how a name resolves and how an address is dialled, injectable so tests
 * play the internet with a loopback server, and the address ranges no sprite may ever reach (private, loopback,
 * link-local, multicast, reserved). It owns neither policy nor HTTP/DNS parsing (gate.ts does).
 * @see docs/wire-reference.md §10, docs/sandbox.md "Egress"
 */
import { promises as dns } from 'node:dns';
import { BlockList, connect, isIP } from 'node:net';
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
 * Ranges the gate never dials, whatever the policy: "this" network, RFC 1918 private, carrier-grade NAT, loopback,
 * link-local, IETF protocol assignments, benchmarking, multicast and reserved (IPv4), and unspecified, loopback,
 * unique-local, link-local, multicast (IPv6; IPv4-mapped addresses are checked as IPv4).
 * @see docs/wire-reference.md §10.1 ("private and loopback ranges are always blocked"), RFC 6890
 */
const ALWAYS_BLOCKED = (() => {
  const list = new BlockList();
  for (const [net, bits] of [
    ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
    ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
  ] as const) list.addSubnet(net, bits, 'ipv4');
  for (const [net, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) list.addSubnet(net, bits, 'ipv6');
  return list;
})();

/** Whether `address` (an IPv4 or IPv6 literal) lies in a range no sprite may reach. Anything not an IP is blocked. */
export function isAlwaysBlocked(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return ALWAYS_BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return ALWAYS_BLOCKED.check(mapped[1]!, 'ipv4');
  return ALWAYS_BLOCKED.check(address, 'ipv6');
}
