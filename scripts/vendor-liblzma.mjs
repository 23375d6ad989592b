#!/usr/bin/env node
/**
 * `node scripts/vendor-liblzma.mjs [VERSION]`: refreshes shims/node-liblzma/liblzma.wasm, liblzma compiled to
 * WebAssembly, from the npm package node-liblzma@VERSION (default: the one liblzma.json names), and writes
 * shims/node-liblzma/liblzma.json: where the binary came from (package, version, sha256, liblzma's own version) and
 * the names its exports and import go by. Emscripten minifies those names per build, so they are read here from the
 * package's own loader (lib/wasm/liblzma.js, `b._lzma_code=…Y.f…`) instead of being typed by hand.
 *
 * Why a copy: node-liblzma ships the same build next to its native addon, whose install script compiles C++ where
 * no prebuilt binary fits the platform; installing the package for its .wasm file alone would bring that back.
 * The binary holds liblzma (XZ Utils, 0BSD) and Emscripten's runtime; the package is LGPL-3.0 (its LICENSE is copied
 * beside the binary).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const dest = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'shims', 'node-liblzma');
const metaPath = join(dest, 'liblzma.json');
const version = process.argv[2] ?? JSON.parse(readFileSync(metaPath, 'utf8')).package.version;
const tmp = mkdtempSync(join(tmpdir(), 'vendor-liblzma-'));
try {
  execFileSync('npm', ['pack', `node-liblzma@${version}`, '--pack-destination', tmp, '--silent'], { stdio: ['ignore', 'pipe', 'inherit'] });
  execFileSync('tar', ['-xzf', join(tmp, `node-liblzma-${version}.tgz`), '-C', tmp]);
  const pkg = join(tmp, 'package');
  const glue = readFileSync(join(pkg, 'lib/wasm/liblzma.js'), 'utf8');
  const functions = Object.fromEntries([...glue.matchAll(/b\._(\w+)=[^;]*?\(b\._\1=Y\.(\w+)\)/g)].map((m) => [m[1], m[2]]));
  const memory = /E=Y\.(\w+)/.exec(glue)?.[1];
  const ctors = /R\.unshift\(Y\.(\w+)\)/.exec(glue)?.[1];
  const wasm = readFileSync(join(pkg, 'lib/wasm/liblzma.wasm'));
  const mod = new WebAssembly.Module(wasm);
  const imports = WebAssembly.Module.imports(mod);
  const needed = ['lzma_easy_encoder', 'lzma_stream_decoder', 'lzma_code', 'lzma_end', 'lzma_version_string', 'malloc', 'free'];
  if (!memory || !ctors || needed.some((n) => !functions[n])) throw new Error(`node-liblzma@${version}: its loader no longer names ${needed.filter((n) => !functions[n]).join(', ') || 'the memory or the constructors'}`);
  // The only import is Emscripten's heap growth (emscripten_resize_heap); the shim provides it.
  if (imports.length !== 1 || imports[0].kind !== 'function') throw new Error(`node-liblzma@${version}: unexpected imports ${JSON.stringify(imports)}`);
  copyFileSync(join(pkg, 'lib/wasm/liblzma.wasm'), join(dest, 'liblzma.wasm'));
  copyFileSync(join(pkg, 'LICENSE'), join(dest, 'LICENSE.node-liblzma'));
  const meta = {
    package: { name: 'node-liblzma', version, file: 'lib/wasm/liblzma.wasm' },
    sha256: createHash('sha256').update(wasm).digest('hex'),
    exports: { memory, ctors, ...functions },
    resizeHeap: [imports[0].module, imports[0].name],
  };
  writeFileSync(metaPath, `${JSON.stringify(meta, null, 2)}\n`);
  process.stdout.write(`shims/node-liblzma: liblzma.wasm from node-liblzma@${version} (${wasm.length} bytes)\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
