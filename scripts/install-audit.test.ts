/**
 * The reading of an install's verbose log and tree: an excerpt of the log of the last tarball that compiled
 * (node-liblzma 2.2.0, bundled with just-bash, built by node-gyp) is flagged by each of the three checks; the
 * scripts an install of spritzer-emulator runs now are not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeBuildEvidence, nativeFiles, scriptsRun } from './install-audit.ts';

const COMPILED = `npm info run node-liblzma@2.2.0 install node_modules/spritzer/node_modules/node-liblzma node-gyp rebuild

> node-liblzma@2.2.0 install
> node-gyp rebuild

gyp info it worked if it ends with ok
gyp info using node-gyp@12.4.0
make: Entering directory '/tmp/inst-before/node_modules/spritzer/node_modules/node-liblzma/build'
  g++ -o Release/obj.target/node_lzma.node -shared -pthread -rdynamic
npm info run node-liblzma@2.2.0 install { code: 0, signal: null }
npm info run esbuild@0.28.2 postinstall node_modules/esbuild node install.js
npm info run esbuild@0.28.2 postinstall { code: 0, signal: null }
`;
const CLEAN = `npm http cache fzstd@https://registry.npmjs.org/fzstd/-/fzstd-0.1.1.tgz 0ms (cache hit)
npm info run esbuild@0.28.2 postinstall node_modules/esbuild node install.js
npm info run esbuild@0.28.2 postinstall { code: 0, signal: null }
npm info run spritzer-emulator@0.1.0 postinstall node_modules/spritzer-emulator node scripts/patch-just-bash.mjs
npm info run spritzer-emulator@0.1.0 postinstall { code: 0, signal: null }
`;

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});
/** A project dir whose node_modules holds `files` (relative paths, empty contents). */
function project(files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'install-audit-'));
  made.push(dir);
  mkdirSync(join(dir, 'node_modules'));
  for (const f of files) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), '');
  }
  return dir;
}

describe('install audit', () => {
  it('reads the scripts npm ran, not their end lines', () => {
    expect(scriptsRun(COMPILED).map((r) => `${r.pkg} ${r.event}`)).toEqual(['node-liblzma@2.2.0 install', 'esbuild@0.28.2 postinstall']);
  });

  it('flags the compile: the install script, the toolchain lines, the binding.gyp and the addon left behind', () => {
    const dir = project(['node_modules/spritzer/node_modules/node-liblzma/binding.gyp', 'node_modules/spritzer/node_modules/node-liblzma/build/Release/node_lzma.node']);
    const evidence = nativeBuildEvidence(COMPILED, dir);
    expect(evidence.filter((e) => e.startsWith('script: '))).toEqual(['script: node-liblzma@2.2.0 install (node_modules/spritzer/node_modules/node-liblzma): node-gyp rebuild']);
    expect(evidence.filter((e) => e.startsWith('log: ')).length).toBeGreaterThanOrEqual(4);
    expect(evidence.filter((e) => e.startsWith('file: '))).toEqual([
      'file: node_modules/spritzer/node_modules/node-liblzma/binding.gyp',
      'file: node_modules/spritzer/node_modules/node-liblzma/build/Release/node_lzma.node',
    ]);
  });

  it("finds nothing in an install that ran only spritzer's and esbuild's postinstall and left no native file", () => {
    const dir = project(['node_modules/spritzer-emulator/node_modules/node-liblzma/liblzma.wasm', 'node_modules/@esbuild/linux-x64/bin/esbuild']);
    expect(nativeFiles(dir)).toEqual([]);
    expect(nativeBuildEvidence(CLEAN, dir)).toEqual([]);
  });
});
