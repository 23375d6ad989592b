/**
 * Which addresses the egress gate may dial: public unicast only. Classification is ipaddr.js's table of special
 * ranges (RFC 6890 and successors); on top of it the host's own addresses (every interface) are refused, and an
 * IPv6 form that embeds an IPv4 address (IPv4-mapped, IPv4-compatible, IPv4-translated, NAT64 `64:ff9b::/96`,
 * 6to4, Teredo) is judged by the IPv4 address(es) it carries. It owns that decision; not the policy (gate.ts), not
 * resolving or dialling (net.ts).
 * @see docs/security.md "Egress", docs/wire-reference.md §10.1, RFC 6890, RFC 5737, RFC 3849, RFC 2544, RFC 6052,
 *   RFC 8215, RFC 3056, RFC 4380
 */
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';

/** How long the host's interface addresses are cached, in ms (interfaces come and go; reading them is cheap). */
const HOST_ADDRESSES_TTL_MS = 2000;

/** The IPv6 ranges whose address carries an IPv4 address that decides (ipaddr.js range names). */
const EMBEDDING_V4 = new Set(['ipv4Mapped', 'ipv4Compatible', 'rfc6145', 'rfc6052', '6to4', 'teredo']);

/** NAT64's well-known prefix (RFC 6052); the local-use `64:ff9b:1::/48` (RFC 8215) has no fixed layout: refused. */
const NAT64_WKP = ipaddr.parseCIDR('64:ff9b::/96');

let cached: { at: number; set: Set<string> } | undefined;

/**
 * The host's own addresses, canonical (`ipaddr.js` `toNormalizedString`), from every interface, re-read at most every
 * `HOST_ADDRESSES_TTL_MS`. `now` is the time in ms (injectable for tests).
 */
export function hostAddresses(now = Date.now()): ReadonlySet<string> {
  if (cached && now - cached.at < HOST_ADDRESSES_TTL_MS) return cached.set;
  const set = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) {
      const a = canonical(info.address.split('%')[0]!);
      if (a) set.add(a);
    }
  }
  cached = { at: now, set };
  return set;
}

/**
 * Parses an IP literal (a zone id is dropped), or null. IPv6 goes through the WHATWG URL host parser first, which
 * reads a dotted tail as the kernel does (`::8.8.8.8` is `::808:808`, IPv4-compatible; ipaddr.js alone would read
 * it as IPv4-mapped).
 */
function parseLiteral(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = address.split('%')[0]!;
  try {
    if (!bare.includes(':')) return ipaddr.IPv4.isValidFourPartDecimal(bare) ? ipaddr.IPv4.parse(bare) : null;
    return ipaddr.IPv6.parse(new URL(`http://[${bare}]/`).hostname.slice(1, -1));
  } catch {
    return null;
  }
}

/** The canonical text of an IP literal, or null when it is not one. */
function canonical(address: string): string | null {
  return parseLiteral(address)?.toNormalizedString() ?? null;
}

/** Whether `v6` is IPv4-compatible (`::a.b.c.d`, RFC 4291 §2.5.5.1, deprecated), other than `::` and `::1`. */
function isV4Compatible(v6: ipaddr.IPv6): boolean {
  const b = v6.toByteArray();
  return b.slice(0, 12).every((x) => x === 0) && !(b[12] === 0 && b[13] === 0 && b[14] === 0 && b[15]! <= 1);
}

/** The IPv4 addresses an IPv6 address of range `range` carries (RFC 6052 §2.2, RFC 3056 §2, RFC 4380 §4). */
function embeddedV4(v6: ipaddr.IPv6, range: string): ipaddr.IPv4[] | null {
  const b = v6.toByteArray();
  const v4 = (i: number, invert = false) => new ipaddr.IPv4(b.slice(i, i + 4).map((x) => (invert ? ~x & 0xff : x)));
  switch (range) {
    case 'ipv4Mapped':
    case 'ipv4Compatible':
    case 'rfc6145':
      return [v4(12)];
    case 'rfc6052':
      return v6.match(NAT64_WKP) ? [v4(12)] : null;
    case '6to4':
      return [v4(2)];
    case 'teredo':
      // The Teredo server (bits 32–63) and the client's obfuscated public address (the last 32 bits, inverted).
      return [v4(4), v4(12, true)];
    default:
      return null;
  }
}

/**
 * Whether the gate may dial `address` (an IPv4 or IPv6 literal; a zone id is ignored): it is public unicast
 * (ipaddr.js range `unicast`: not private, loopback, link-local, carrier-grade NAT, documentation, benchmarking,
 * multicast, broadcast, reserved, discard, ORCHID…), not one of `host` (the host's own addresses), and, for an IPv6
 * form that embeds IPv4, every embedded IPv4 address passes too. Anything that is not an IP literal is refused.
 */
export function isPublicUnicast(address: string, host: ReadonlySet<string> = hostAddresses()): boolean {
  const parsed = parseLiteral(address);
  if (!parsed) return false;
  if (host.has(parsed.toNormalizedString())) return false;
  const range = parsed.kind() === 'ipv6' && isV4Compatible(parsed as ipaddr.IPv6) ? 'ipv4Compatible' : parsed.range();
  if (range === 'unicast') return true;
  if (parsed.kind() !== 'ipv6' || !EMBEDDING_V4.has(range)) return false;
  const inner = embeddedV4(parsed as ipaddr.IPv6, range);
  return inner !== null && inner.every((v4) => isPublicUnicast(v4.toString(), host));
}
