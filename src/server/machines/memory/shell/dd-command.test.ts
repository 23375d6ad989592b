import { describe, expect, it } from 'vitest';
import { engineBash, hostBash } from '../../../../../test/support/host-bash.ts';

// GNU dd on the shell engine, each command line compared with the host's own dd (the transfer summary's time and
// rate differ from run to run, so those lines are left to the cases that drop them).

describe('dd, as GNU dd', () => {
  it.each([
    "printf 'hello world' | dd bs=1 skip=6 count=3 2>/dev/null",
    "printf 'hello' | dd conv=ucase 2>/dev/null",
    "printf 'abcde' | dd conv=swab bs=3 status=none; printf 'abcdef' | dd conv=swab,ucase bs=3 status=none",
    'dd if=/nope; echo st=$?',
    'dd bs=x; echo st=$?',
    'dd foo=1; echo st=$?',
    'dd status=bogus; echo st=$?',
    "printf 'abcdef' > f; printf 'XY' | dd of=f seek=2 bs=1 conv=notrunc 2>/dev/null; cat f",
    "printf 'abcdef' > f; printf 'XY' | dd of=f seek=2 bs=1 2>/dev/null; cat f",
    'dd if=/dev/zero bs=1K count=3 status=none | wc -c',
    'dd if=/dev/zero bs=2x512 count=1 2>/dev/null | wc -c',
    "printf 'abc' | dd ibs=1 obs=2 2>&1 >/dev/null | head -2",
    'dd if=/dev/zero of=z bs=1M count=2 status=none; stat -c %s z',
    "printf 'hello world' | dd bs=4 2>&1 >/dev/null | head -2",
    'dd if=/dev/urandom bs=16 count=1 status=none | wc -c',
    "printf 'abcdef' | dd iflag=skip_bytes,count_bytes skip=2 count=3 status=none",
    "printf 'ab' | dd bs=4 conv=sync status=none | od -c",
    'dd if=/dev/zero bs=1M count=1 2>&1 >/dev/null | head -2',
    "printf 'x' > f; printf 'yz' | dd of=f oflag=append conv=notrunc status=none; cat f",
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
  it('ends its summary with the bytes, time and rate in GNU\'s form', async () => {
    const r = await engineBash('dd if=/dev/zero bs=1M count=1 of=/dev/null 2>&1 | tail -1; printf abc | dd 2>&1 >/dev/null | tail -1');
    expect(r.stdout).toMatch(/^1048576 bytes \(1\.0 MB, 1\.0 MiB\) copied, [\d.e-]+ s, [\d.]+ [kMGT]B\/s\n3 bytes copied, [\d.e-]+ s, [\d.]+ [kMGT]B\/s\n$/);
  });
});
