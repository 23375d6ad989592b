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
    // Sizes as GNU's xstrtoumax reads them: k and K are 1024, a B or D after a power suffix makes it 1000, iB keeps
    // 1024, a B alone means bytes, one `x` product; anything else is an invalid number (status 1).
    'for s in 1k 1K 1KB 1kB 1kiB 1KiB 1KD 1bB 1wB 3c 2x3 1xM 2Bx3 M kB " 1" +1; do dd if=/dev/zero bs="$s" count=1 status=none | wc -c; done',
    'for s in 1ciB 2x3x5 1m 1kb 1Ki 1e "" 1x 1k2 -1 1kk B x2 1kBB 00x10 0x 0x10 99999999999999999999 1Y; do dd if=/dev/zero bs="$s" count=1; echo "st=$?"; done 2>&1',
    "seq 1000 | dd bs=1 skip=1k count=2x5 status=none; seq 1000 | dd bs=2 skip=1k iflag=skip_bytes count=5 status=none",
    'dd if=/dev/zero bs=1 count=2KB iflag=count_bytes status=none | wc -c; dd if=/dev/zero count=0x10 bs=1 2>e; head -2 e',
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
  it('ends its summary with the bytes, time and rate in GNU\'s form', async () => {
    const r = await engineBash('dd if=/dev/zero bs=1M count=1 of=/dev/null 2>&1 | tail -1; printf abc | dd 2>&1 >/dev/null | tail -1');
    expect(r.stdout).toMatch(/^1048576 bytes \(1\.0 MB, 1\.0 MiB\) copied, [\d.e-]+ s, [\d.]+ [kMGT]B\/s\n3 bytes copied, [\d.e-]+ s, [\d.]+ [kMGT]B\/s\n$/);
  });
});
