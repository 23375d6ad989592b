import { describe, expect, it } from 'vitest';
import { networkInterfaces } from 'node:os';
import { hostAddresses, isPublicUnicast } from './public-address.ts';

/** Decisions only: nothing here opens a socket. */
describe('isPublicUnicast: the egress gate dials public unicast only', () => {
  const refused: Array<[string, string]> = [
    ['RFC 5737 TEST-NET-1', '192.0.2.1'],
    ['RFC 5737 TEST-NET-2', '198.51.100.7'],
    ['RFC 5737 TEST-NET-3', '203.0.113.5'],
    ['RFC 2544 benchmarking', '198.18.0.1'],
    ['RFC 2544 benchmarking, upper half', '198.19.255.254'],
    ['multicast', '224.0.0.251'],
    ['multicast, top', '239.255.255.250'],
    ['limited broadcast', '255.255.255.255'],
    ['reserved 240/4', '240.0.0.1'],
    ['this network', '0.1.2.3'],
    ['loopback', '127.0.0.2'],
    ['private', '10.0.0.1'],
    ['carrier-grade NAT', '100.64.0.1'],
    ['link-local (cloud metadata)', '169.254.169.254'],
    ['IETF protocol assignments', '192.0.0.8'],
    ['6to4 relay anycast', '192.88.99.1'],
    ['RFC 3849 documentation', '2001:db8::1'],
    ['IPv6 benchmarking', '2001:2::1'],
    ['IPv6 multicast', 'ff02::1'],
    ['IPv6 unique-local', 'fd12::1'],
    ['IPv6 link-local with zone', 'fe80::1%lo'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unspecified', '::'],
    ['IPv6 discard', '100::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped loopback, hex', '::ffff:7f00:1'],
    ['IPv4-mapped TEST-NET', '::ffff:192.0.2.1'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['IPv4-compatible private', '::10.0.0.1'],
    ['IPv4-translated (RFC 6145) loopback', '::ffff:0:127.0.0.1'],
    ['NAT64 loopback', '64:ff9b::127.0.0.1'],
    ['NAT64 private, hex', '64:ff9b::a00:1'],
    ['NAT64 local-use prefix (RFC 8215)', '64:ff9b:1::808:808'],
    ['6to4 of loopback', '2002:7f00:1::1'],
    ['6to4 of private', '2002:c0a8:101::1'],
    ['Teredo with a private client', '2001:0:4136:e378:8000:63bf:f5ff:fefe'],
    ['Teredo with a loopback server', '2001:0:7f00:1:8000:63bf:3fff:fdd2'],
    ['a name', 'example.com'],
    ['garbage', '1.2.3'],
  ];
  it.each(refused)('refuses %s (%s)', (_what, address) => {
    expect(isPublicUnicast(address, new Set())).toBe(false);
  });

  const allowed: Array<[string, string]> = [
    ['public IPv4', '8.8.8.8'],
    ['public IPv4 next to benchmarking', '198.20.0.1'],
    ['public IPv6', '2606:4700:4700::1111'],
    ['IPv4-mapped public', '::ffff:8.8.8.8'],
    ['NAT64 of a public address', '64:ff9b::808:808'],
    ['6to4 of a public address', '2002:808:808::1'],
    ['Teredo with public server and client', '2001:0:808:808:8000:63bf:f7f7:f7f7'],
  ];
  it.each(allowed)('allows %s (%s)', (_what, address) => {
    expect(isPublicUnicast(address, new Set())).toBe(true);
  });

  it('refuses the host’s own addresses, in every spelling, also when they are public', () => {
    const host = new Set(['8.8.8.8', '2606:4700:4700:0:0:0:0:1111']);
    for (const a of ['8.8.8.8', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2606:4700:4700::1111']) {
      expect(isPublicUnicast(a, host), a).toBe(false);
    }
    expect(isPublicUnicast('8.8.4.4', host)).toBe(true);
  });

  it('hostAddresses lists every interface address of this host', () => {
    const seen = hostAddresses(Date.now() + 60_000);
    for (const info of Object.values(networkInterfaces()).flat()) {
      if (!info) continue;
      expect(isPublicUnicast(info.address)).toBe(false);
    }
    expect(seen.has('127.0.0.1')).toBe(true);
  });
});
