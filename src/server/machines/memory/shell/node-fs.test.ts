import { describe, it, expect } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// node's fs calls js-exec lacks (node-fs.ts on the main thread, node-fs-source.ts in the prelude, through the
// js-exec-worker-fs patches): the answers node 20 gives on Linux.
describe("node's fs options and errors", () => {
  it("writeFileSync's flag (wx keeps an existing file, a appends) and mode (less the umask); mkdirSync's mode and first directory made", async () => {
    const r = await runShell(`cd /tmp && echo old > lock && node -e 'const fs = require("fs"); try { fs.writeFileSync("lock", "new", {flag: "wx"}) } catch (e) { console.log(e.code, e.errno, e.syscall, e.path, e.message) } fs.writeFileSync("lock", "more\\n", {flag: "a"}); fs.writeFileSync("key", "s", {mode: 0o600}); fs.writeFileSync("bin", Buffer.from([104, 105])); console.log(fs.mkdirSync("a/b/c", {recursive: true}), fs.mkdirSync("a/b", {recursive: true})); fs.mkdirSync("d", {mode: 0o700}); fs.mkdirSync("e/f", {recursive: true, mode: 0o750})'; cat lock bin; echo; stat -c '%a %n' key d e e/f; umask 077; node -e 'require("fs").writeFileSync("/tmp/u", "x", {mode: 0o666})'; stat -c %a /tmp/u`);
    expect(r).toEqual({ stdout: "EEXIST -17 open lock EEXIST: file already exists, open 'lock'\na undefined\nold\nmore\nhi\n600 key\n700 d\n750 e\n750 e/f\n600\n", stderr: '', exit: 0 });
  }, 60_000);

  it('unlinkSync of a directory is EISDIR; rmSync of a missing path is lstat ENOENT, of a directory ERR_FS_EISDIR; rmdirSync of a file ENOTDIR', async () => {
    const r = await runShell(`cd /tmp && node -e 'const fs = require("fs"); fs.mkdirSync("d"); fs.writeFileSync("d/f", ""); for (const f of [() => fs.unlinkSync("d"), () => fs.rmSync("nope"), () => fs.rmSync("d"), () => fs.rmdirSync("d/f"), () => fs.rmdirSync("d")]) { try { f() } catch (e) { console.log(e.code, e.syscall, e.message) } } fs.rmSync("nope", {force: true}); fs.rmSync("d", {recursive: true}); console.log(fs.existsSync("d"))'`);
    expect(r.stdout).toBe([
      "EISDIR unlink EISDIR: illegal operation on a directory, unlink 'd'",
      "ENOENT lstat ENOENT: no such file or directory, lstat 'nope'",
      'ERR_FS_EISDIR rm Path is a directory: rm returned EISDIR (is a directory) d',
      "ENOTDIR rmdir ENOTDIR: not a directory, rmdir 'd/f'",
      "ENOTEMPTY rmdir ENOTEMPTY: directory not empty, rmdir 'd'",
      'false',
      '',
    ].join('\n'));
  }, 60_000);

  it('constants, access with the sprite user\'s permission bits, truncate, utimes, hard links, COPYFILE_EXCL', async () => {
    const r = await runShell(`cd /tmp && printf 'hello world\\n' > a && chmod 000 a && node -e 'const fs = require("fs"); const c = fs.constants; console.log(c.F_OK, c.R_OK, c.W_OK, c.X_OK, c.COPYFILE_EXCL, c.O_CREAT, c.O_EXCL, c.O_APPEND, fs.X_OK); for (const [f, m] of [["a", c.R_OK], ["a"], ["/etc/passwd", c.W_OK], ["/etc/passwd", c.R_OK], ["nope"]]) { try { fs.accessSync(f, m); console.log("ok", f) } catch (e) { console.log(e.code, e.message) } } fs.promises.access("nope").catch((e) => console.log("p", e.code))' && chmod 644 a && node -e 'const fs = require("fs"); fs.truncateSync("a", 5); fs.linkSync("a", "h"); fs.appendFileSync("h", "!"); try { fs.linkSync("a", "h") } catch (e) { console.log(e.message) } fs.copyFileSync("a", "b", fs.constants.COPYFILE_EXCL); try { fs.copyFileSync("a", "b", fs.constants.COPYFILE_EXCL) } catch (e) { console.log(e.code, e.message) } fs.utimesSync("a", 86400, 86400)' && cat a && echo && stat -c '%h %s' a && date -u -r a +%F`);
    expect(r).toEqual({ stdout: [
      '0 4 2 1 1 64 128 1024 1',
      "EACCES EACCES: permission denied, access 'a'",
      'ok a',
      "EACCES EACCES: permission denied, access '/etc/passwd'",
      'ok /etc/passwd',
      "ENOENT ENOENT: no such file or directory, access 'nope'",
      'p ENOENT',
      "EEXIST: file already exists, link 'a' -> 'h'",
      "EEXIST EEXIST: file already exists, copyfile 'a' -> 'b'",
      'hello!',
      '2 6',
      '1970-01-02',
      '',
    ].join('\n'), stderr: '', exit: 0 });
  }, 60_000);

  it('descriptors: openSync with r, w, a, wx, r+; readSync and writeSync at the offset or a position; stdin as 0; EBADF', async () => {
    const r = await runShell(`cd /tmp && printf abc | node -e 'const fs = require("fs"); const fd = fs.openSync("o", "w"); fs.writeSync(fd, "hello "); fs.writeSync(fd, Buffer.from("world\\n")); fs.closeSync(fd); const a = fs.openSync("o", "a"); fs.writeSync(a, "end\\n"); fs.closeSync(a); const p = fs.openSync("o", "r+"); fs.writeSync(p, "J", 0); fs.closeSync(p); const rd = fs.openSync("o"); const b = Buffer.alloc(5); console.log(fs.readSync(rd, b, 0, 5, null), b.toString(), fs.readSync(rd, b, 0, 5, null), b.toString()); try { fs.openSync("o", "wx") } catch (e) { console.log(e.message) } try { fs.closeSync(99) } catch (e) { console.log(e.code, e.errno, e.message) } const s = Buffer.alloc(8); const n = fs.readSync(0, s, 0, 8); console.log(n, s.toString("utf8", 0, n))'; cat o`);
    expect(r).toEqual({ stdout: "5 Jello 5  worl\nEEXIST: file already exists, open 'o'\nEBADF -9 EBADF: bad file descriptor, close\n3 abc\nJello world\nend\n", stderr: '', exit: 0 });
  }, 60_000);

  it('readFileSync of a descriptor reads from its offset; a closed one is EBADF (fstat); fs.promises.open (a FileHandle) is refused', async () => {
    const r = await runShell(`cd /tmp && printf 'hello world\\n' > a && node -e 'const fs = require("fs"); const fd = fs.openSync("a"); fs.readSync(fd, Buffer.alloc(6), 0, 6, null); console.log(JSON.stringify(fs.readFileSync(fd, "utf8"))); fs.closeSync(fd); try { fs.readFileSync(fd) } catch (e) { console.log(e.code, e.message) }' && node -e 'require("fs").promises.open("a")'; echo "rc=$?"`);
    expect(r).toEqual({ stdout: '"world\\n"\nEBADF EBADF: bad file descriptor, fstat\nrc=2\n', stderr: 'node: fs.promises.open is not available in the shell engine; run spritzer with --exec sandbox\n', exit: 0 });
  }, 60_000);

  it('writeFileSync/appendFileSync write bytes and encodings as given; mkdirSync recursive over a file is EEXIST', async () => {
    const r = await runShell(`cd /tmp && touch f && node -e 'const fs = require("fs"); fs.writeFileSync("b", Buffer.from([0, 255, 10])); fs.writeFileSync("c", "aGkK", "base64"); fs.writeFileSync("d", "6869", {encoding: "hex"}); fs.appendFileSync("d", "0a", "hex"); try { fs.mkdirSync("f", {recursive: true}) } catch (e) { console.log(e.message) }' && od -An -tx1 b && cat c d`);
    expect(r).toEqual({ stdout: "EEXIST: file already exists, mkdir 'f'\n 00 ff 0a\nhi\nhi\n", stderr: '', exit: 0 });
  }, 60_000);

  it("statSync/lstatSync give node's Stats: the type bits in mode, nlink, uid, ino, blocks, the times; throwIfNoEntry", async () => {
    const r = await runShell(`cd /tmp && printf 'hello\\n' > a && ln a h && ln -s a l && node -e 'const fs = require("fs"); const s = fs.statSync("a"), l = fs.lstatSync("l"); console.log(s.mode.toString(8), s.nlink, s.uid, s.gid, s.size, s.blocks, s.ino === fs.statSync("h").ino, Math.floor(s.mtimeMs) === s.mtime.getTime(), l.mode.toString(8), l.isSymbolicLink(), fs.statSync("/tmp").mode.toString(8), fs.statSync("nope", {throwIfNoEntry: false}))'`);
    expect(r).toEqual({ stdout: '100644 2 1001 1001 6 8 true true 120777 true 41777 undefined\n', stderr: '', exit: 0 });
  }, 60_000);

  it('readFileSync decodes the bytes with the encoding asked (a NUL byte does not end the text); stdin is read once', async () => {
    const r = await runShell(`cd /tmp && printf 'a\\0b' > z && printf 'in' | node -e 'const fs = require("fs"); console.log(JSON.stringify(fs.readFileSync("z", "utf8")), fs.readFileSync("z", "hex"), fs.readFileSync("z", {encoding: "base64"}), JSON.stringify(fs.readFileSync(0, "utf8")), JSON.stringify(fs.readFileSync(0, "utf8")))'`);
    expect(r).toEqual({ stdout: '"a\\u0000b" 610062 YQBi "in" ""\n', stderr: '', exit: 0 });
  }, 60_000);

  it("readdirSync recursive (breadth first, relative names); chmodSync with an octal string; copyFileSync keeps the source's mode; realpathSync's lstat error", async () => {
    const r = await runShell(`cd /tmp && mkdir -p t/a/b && touch t/f t/a/g t/a/b/h && printf 'x' > s && chmod 750 s && umask 077 && node -e 'const fs = require("fs"); console.log(fs.readdirSync("t", {recursive: true}).join(",")); fs.chmodSync("t/f", "640"); fs.copyFileSync("s", "c"); try { fs.realpathSync("nope/x") } catch (e) { console.log(e.code, e.syscall, e.path) }' && stat -c %a t/f c`);
    expect(r).toEqual({ stdout: 'a,f,a/b,a/g,a/b/h\nENOENT lstat /tmp/nope\n640\n750\n', stderr: '', exit: 0 });
  }, 60_000);

  it('writeFileSync refuses data that is not a string or bytes (ERR_INVALID_ARG_TYPE); mkdtempSync makes a 0700 directory', async () => {
    const r = await runShell(`cd /tmp && node -e 'const fs = require("fs"); for (const d of [5, {a: 1}, null]) { try { fs.writeFileSync("w", d) } catch (e) { console.log(e.code, e.message) } } const t = fs.mkdtempSync("/tmp/j-"); console.log(/^[/]tmp[/]j-[A-Za-z0-9]{6}$/.test(t), (fs.statSync(t).mode & 0o777).toString(8), fs.existsSync("w")); try { fs.mkdtempSync("/nonexist/x-") } catch (e) { console.log(e.message) }'`);
    expect(r.stdout).toBe([
      'ERR_INVALID_ARG_TYPE The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received type number (5)',
      'ERR_INVALID_ARG_TYPE The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received an instance of Object',
      'ERR_INVALID_ARG_TYPE The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received null',
      'true 700 false',
      "ENOENT: no such file or directory, mkdtemp '/nonexist/x-XXXXXX'",
      '',
    ].join('\n'));
  }, 60_000);
});
