import { describe, expect, it } from 'vitest';
import { decodeProcAddress, parseProcNetTcp } from './ports.ts';
import { readOnlyMounts } from './usage.ts';

const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0000000000000000 100 0 0 10 0
   1: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 77 1 0000000000000000 100 0 0 10 0
   2: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000  1000        0 4243 1 0000000000000000 20 4 30 10 -1
`;
const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000000000000:0BB8 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 99 1 0000000000000000 100 0 0 10 0
   1: 00000000000000000000000001000000:0BB9 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 98 1 0000000000000000 100 0 0 10 0
`;

describe('listening ports from /proc/net/tcp', () => {
  it('lists only LISTEN rows, with port and address decoded', () => {
    expect(parseProcNetTcp(TCP)).toEqual([
      { address: '127.0.0.1', port: 8080, inode: 4242 },
      { address: '0.0.0.0', port: 22, inode: 77 },
    ]);
  });

  it('decodes IPv6 addresses to their canonical text', () => {
    expect(parseProcNetTcp(TCP6)).toEqual([
      { address: '::', port: 3000, inode: 99 },
      { address: '::1', port: 3001, inode: 98 },
    ]);
    expect(decodeProcAddress('0000000000000000FFFF00000100007F')).toBe('::ffff:7f00:1');
  });

  it('refuses a malformed row instead of skipping it', () => {
    expect(() => parseProcNetTcp('header\n   0: garbage\n')).toThrow(/unexpected/);
  });
});

describe('read-only mounts from mountinfo', () => {
  it('lists mount points whose options include ro, decoding octal escapes', () => {
    const info = [
      '22 1 0:21 / / rw,relatime - overlay overlay rw',
      '23 22 8:1 /usr /usr ro,nosuid,relatime - ext4 /dev/sda1 rw',
      '24 22 8:1 /x /my\\040dir ro,relatime - ext4 /dev/sda1 rw',
    ].join('\n');
    expect(readOnlyMounts(info)).toEqual(['/usr', '/my dir']);
  });
});
