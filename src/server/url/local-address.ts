/**
 * How a client on this machine writes the address of a socket spritzer listens on: a wildcard bind is reached on
 * loopback, an IPv6 address goes in brackets. Shared by the API's own base URL and each sprite's port URL.
 */
import type { AddressInfo } from 'node:net';

/** The host (for a URL) a client on this machine dials to reach a socket bound to `addr`, e.g. `127.0.0.1`, `[::1]`. */
export function localHostOf(addr: AddressInfo): string {
  if (addr.address === '0.0.0.0') return '127.0.0.1';
  if (addr.address === '::') return '[::1]';
  return addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
}
