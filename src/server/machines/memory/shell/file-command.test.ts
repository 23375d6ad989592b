import { describe, expect, it } from 'vitest';
import { engineBash, hostBash, hostHas } from '../../../../../test/support/host-bash.ts';

// file(1) on the shell engine, compared with the host's file (libmagic) on the same bytes.

const S = `printf '#!/bin/sh\\necho\\n' > a; printf '#!/usr/bin/env python3\\nprint(1)\\n' > b; printf '#!/usr/bin/env node\\n1\\n' > c; printf '<?xml version="1.0"?>\\n<a/>\\n' > e; printf '#include <stdio.h>\\nint main(){}\\n' > f; printf 'x%.0s' $(seq 1 400) > g; printf '\\xef\\xbb\\xbfhi\\n' > h; printf 'caf\\xe9\\n' > i; printf '\\x1b[1mhi\\n' > j; printf 'a\\rb\\r' > k; printf 'abc' > l; printf '\\x00\\x01\\x02' > m; printf '%%PDF-1.4\\n' > n; printf 'GIF89a\\x01\\x00\\x01\\x00' > o; echo x | gzip > p.gz; printf 'x' > q; echo x | bzip2 > s.bz2; echo x | xz > t.xz; printf '<!DOCTYPE html>\\n<p>x</p>\\n' > v; printf '{"a": [1, 2]}' > w; printf '[1,2]\\n' > x; printf '\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\rIHDR\\x00\\x00\\x00\\x10\\x00\\x00\\x00\\x08\\x08\\x06\\x00\\x00\\x00' > y.png; printf 'ab' > two; printf '\\n' > nl; : > e0; mkdir d; ln -s a la; ln -s nope bl; printf 'h\\xc3\\xa9\\n' > u8; printf 'a\\r\\nb\\r\\n' > crlf; `;

describe.skipIf(!hostHas('file') || !hostHas('xz') || !hostHas('bzip2'))('file, as libmagic', () => {
  it.each([
    'file a b c e f g h i j k l m n o',
    'file p.gz q s.bz2 t.xz v w x y.png two nl e0 d la bl u8 crlf',
    'file -i a i w m two',
    'file --mime-type p.gz y.png w',
    'file -b a; file -N a d',
    'file nope; echo $?',
    'file -L la bl',
    // A character device is named with its major/minor numbers.
    'file /dev/null /dev/zero /dev/urandom; file -i /dev/null',
    'file --mime-encoding a i u8',
    // CSV by libmagic's is_csv (same comma count on more than two lines), Python source by its def/from/if patterns.
    `printf 'b,2,x\\na,1,y\\nc,3,z\\n' > c1; printf 'a,b\\n1,2\\n' > c2; printf 'a,"b,c"\\n1,2\\n3,4\\n' > c3; printf 'a,b\\n1,2,3\\n4,5\\n' > c4; file c1 c2 c3 c4; file -i c1`,
    // JavaScript by libmagic's patterns: ES module lines, require(), module.exports, "use strict"; not a bare `let`.
    `printf 'export const x = 1;\\n' > j1; printf 'x\\nimport { a } from "b"\\n' > j2; printf 'const a = require("x");\\n' > j3; printf 'module.exports = 1;\\n' > j4; printf '"use strict";\\n' > j5; printf 'let x = 1;\\n' > j6; printf 'export type A = 1;\\n' > j7; file j1 j2 j3 j4 j5 j6 j7; file -i j1`,
    // -z looks inside compressed data only: other files are described as without it.
    'file -z a i w; file --uncompress -b n',
    // GIF dimensions only when present and not 0; a Zip local header without a central directory is data.
    `for s in 'GIF89a' 'GIF89a\\x01\\x00' 'GIF89a\\x00\\x00\\x02\\x00' 'GIF87a\\x01\\x00\\x02\\x00'; do printf "$s" > g.gif; file -b g.gif; done; printf 'PK\\003\\004' > z1; printf 'PK\\003\\004\\x14\\0\\0\\0\\0\\0xxxxxxxxxxxxxxxxxxxxPK\\005\\006' > z2; file z1 z2`,
    // PNG: libmagic needs the IHDR chunk header after the signature, reads missing bytes as 0, and words each colour type.
    `printf '\\x89PNG\\r\\n\\x1a\\n' > s8.png; printf '\\x89PNG\\r\\n\\x1a\\n\\0\\0\\0\\rIHDR' > h.png; for ct in 0 2 3 4 6 5; do printf "\\x89PNG\\r\\n\\x1a\\n\\0\\0\\0\\rIHDR\\0\\0\\0\\x10\\0\\0\\0\\x20\\x08\\x0$ct\\0\\0\\x01" > c$ct.png; done; file s8.png h.png c*.png`,
    `printf 'def main():\\n    pass\\n' > p1; printf 'import os\\n' > p2; printf 'from os import path\\n' > p3; printf 'if __name__ == "__main__":\\n  main()\\n' > p4; printf 'def f() -> int:\\n  return 1\\n' > p5; file p1 p2 p3 p4 p5`,
  ])('%s', async (script) => {
    expect(await engineBash(S + script)).toEqual(hostBash(S + script));
  });
});
