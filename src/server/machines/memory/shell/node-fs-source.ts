/**
 * The part of node's fs that js-exec lacks, as JavaScript for the node prelude (node-prelude.ts puts it after its
 * `fs`, `g`, `w`, `input` and `FS_ERRNO`, before it wraps fs's calls with node's errors): node's Stats from
 * `statSync`/`lstatSync`, `fs.constants` (node 20 on Linux), `accessSync`, `openSync`/`readSync`/`writeSync`/
 * `closeSync`/`fstatSync`/`ftruncateSync`, `truncateSync`, `utimesSync`, `linkSync`, `mkdtempSync`, the `flag` and
 * `mode` options of `writeFileSync`/`appendFileSync` (and their check of the data), `readFileSync`'s encodings,
 * `mkdirSync`'s `mode` and its answer with `recursive`, `copyFileSync`'s COPYFILE_EXCL and modes, `chmodSync`'s octal
 * strings, `realpathSync`'s errors, and node's errors of `unlinkSync`, `rmdirSync` and `rmSync`. Each asks the main
 * thread through `__spzFs` (node-fs.ts), whose `CODE: text, syscall` becomes node's Error (code, errno, syscall, path,
 * dest).
 * @deviation Descriptors are the prelude's own table (numbers from 3): a descriptor holds its path and offset, and each
 * read or write goes to the file by name, so a file renamed or removed while open is not followed; a Stats' ctime and
 * birthtime are its mtime (the files keep no change or birth time).
 */

/** node 20's `fs.constants` on Linux x64 (`node -p 'require("fs").constants'`). */
export const NODE_FS_CONSTANTS = {
  UV_FS_SYMLINK_DIR: 1, UV_FS_SYMLINK_JUNCTION: 2, O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, UV_DIRENT_UNKNOWN: 0, UV_DIRENT_FILE: 1,
  UV_DIRENT_DIR: 2, UV_DIRENT_LINK: 3, UV_DIRENT_FIFO: 4, UV_DIRENT_SOCKET: 5, UV_DIRENT_CHAR: 6, UV_DIRENT_BLOCK: 7,
  EXTENSIONLESS_FORMAT_JAVASCRIPT: 0, EXTENSIONLESS_FORMAT_WASM: 1, S_IFMT: 61440, S_IFREG: 32768, S_IFDIR: 16384,
  S_IFCHR: 8192, S_IFBLK: 24576, S_IFIFO: 4096, S_IFLNK: 40960, S_IFSOCK: 49152, O_CREAT: 64, O_EXCL: 128,
  UV_FS_O_FILEMAP: 0, O_NOCTTY: 256, O_TRUNC: 512, O_APPEND: 1024, O_DIRECTORY: 65536, O_NOATIME: 262144,
  O_NOFOLLOW: 131072, O_SYNC: 1052672, O_DSYNC: 4096, O_DIRECT: 16384, O_NONBLOCK: 2048, S_IRWXU: 448, S_IRUSR: 256,
  S_IWUSR: 128, S_IXUSR: 64, S_IRWXG: 56, S_IRGRP: 32, S_IWGRP: 16, S_IXGRP: 8, S_IRWXO: 7, S_IROTH: 4, S_IWOTH: 2,
  S_IXOTH: 1, F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, UV_FS_COPYFILE_EXCL: 1, COPYFILE_EXCL: 1, UV_FS_COPYFILE_FICLONE: 2,
  COPYFILE_FICLONE: 2, UV_FS_COPYFILE_FICLONE_FORCE: 4, COPYFILE_FICLONE_FORCE: 4,
};

/** The JavaScript (see the module doc). */
export const NODE_FS_SOURCE = `
fs.constants = ${JSON.stringify(NODE_FS_CONSTANTS)};
Object.assign(fs, { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1 });
const C = fs.constants;
// node's Error for the main thread's 'CODE: text, syscall': the paths are the code's own (node's message quotes them).
const nodeFsError = (e, paths) => {
  const m = /^([A-Z]+): ([^,]*), ([a-z]+)/.exec(String(e && e.message));
  if (!m) return e;
  const [, code, text, syscall] = m;
  const path = paths[0] === undefined ? undefined : String(paths[0]);
  if (code === 'EISDIR' && syscall === 'rm') return Object.assign(new Error('Path is a directory: rm returned EISDIR (is a directory) ' + path), { name: 'SystemError', code: 'ERR_FS_EISDIR', errno: 21, syscall: 'rm', path });
  const dest = paths[1] === undefined ? undefined : String(paths[1]);
  const err = new Error(code + ': ' + text + ', ' + syscall + (path === undefined ? '' : " '" + path + "'" + (dest === undefined ? '' : " -> '" + dest + "'")));
  return Object.assign(err, { errno: -(FS_ERRNO[code] || 0), code, syscall }, path === undefined ? {} : { path }, dest === undefined ? {} : { dest });
};
const spzFs = (req, paths) => { try { return JSON.parse(g.__spzFs(JSON.stringify(req))); } catch (e) { throw nodeFsError(e, paths); } };
const badFd = (syscall) => nodeFsError(new Error('EBADF: bad file descriptor, ' + syscall), []);
const pathText = (p) => (p instanceof URL ? decodeURIComponent(p.pathname) : typeof p === 'string' ? p : Buffer.isBuffer(p) ? p.toString() : p);
const bytesOf = (data, enc) => (typeof data === 'string' ? Buffer.from(data, enc || 'utf8') : Buffer.isBuffer(data) ? data : ArrayBuffer.isView(data) ? Buffer.from(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)) : Buffer.from(String(data)));
const modeOf = (m, dflt) => (m === undefined || m === null ? dflt : typeof m === 'string' ? parseInt(m, 8) : Number(m));
// node's flag strings (lib/internal/fs/utils.js stringToFlags) as O_* numbers.
const FLAGS = { r: 0, rs: 1052672, sr: 1052672, 'r+': 2, 'rs+': 1052674, 'sr+': 1052674, w: 577, wx: 705, xw: 705, 'w+': 578, 'wx+': 706, 'xw+': 706, a: 1089, ax: 1217, xa: 1217, as: 1053761, sa: 1053761, 'a+': 1090, 'ax+': 1218, 'xa+': 1218, 'as+': 1053762, 'sa+': 1053762 };
const flagsOf = (f, dflt) => {
  if (f === undefined || f === null) f = dflt;
  if (typeof f === 'number') return f;
  if (!(f in FLAGS)) throw Object.assign(new TypeError("The argument 'flags' is invalid. Received " + JSON.stringify(f)), { code: 'ERR_INVALID_ARG_VALUE' });
  return FLAGS[f];
};
const openFile = (path, flags, mode) => {
  const acc = flags & 3;
  spzFs({ op: 'open', path: pathText(path), read: acc !== 1, write: acc !== 0, create: (flags & C.O_CREAT) !== 0, excl: (flags & C.O_EXCL) !== 0, trunc: (flags & C.O_TRUNC) !== 0, mode }, [path]);
};
// Writes bytes to the file (at position, or at its end: null), in pieces the bridge can carry.
const writeBytes = (path, bytes, position, syscall) => {
  const PIECE = 4 * 1024 * 1024;
  for (let at = 0; at < bytes.length || at === 0; at += PIECE) {
    const piece = bytes.slice(at, at + PIECE);
    if (piece.length === 0) break;
    spzFs({ op: 'write', path: pathText(path), data: piece.toString('base64'), position: position === null ? null : position + at }, [path]);
  }
};
const raw = (b) => (b && b._data instanceof Uint8Array ? b._data : b);
// js-exec's own writes take text as UTF-8 and no other encoding.
const plainText = (enc) => enc === undefined || enc === null || /^utf-?8$/i.test(enc);
const optionsOf = (o) => (typeof o === 'string' ? { encoding: o } : o || {});
// node's Stats: every field stat(2) gives (the type bits in mode, nlink, uid, ino, blocks…), the four times as Dates
// and as milliseconds, and the is*() questions.
const nodeStats = (r) => {
  const t = new Date(Math.floor(r.timeMs));
  const a = r.atimeMs === undefined ? r.timeMs : r.atimeMs;
  return { dev: r.dev, mode: r.mode, nlink: r.nlink, uid: r.uid, gid: r.gid, rdev: r.rdev, blksize: r.blksize, ino: r.ino, size: r.size, blocks: r.blocks,
    atimeMs: a, mtimeMs: r.timeMs, ctimeMs: r.timeMs, birthtimeMs: r.timeMs, atime: new Date(Math.floor(a)), mtime: new Date(t), ctime: new Date(t), birthtime: new Date(t),
    isFile: () => r.isFile, isDirectory: () => r.isDirectory, isSymbolicLink: () => r.isSymbolicLink, isFIFO: () => false, isSocket: () => false, isBlockDevice: () => false, isCharacterDevice: () => r.isDevice };
};
const statWith = (follow) => function (path, options) {
  if (options && options.bigint) g.__spzRefuse('fs.' + (follow ? 'stat' : 'lstat') + 'Sync with bigint');
  try { return nodeStats(spzFs({ op: 'stat', path: pathText(path), follow }, [path])); }
  catch (e) { if (options && options.throwIfNoEntry === false && e.code === 'ENOENT') return undefined; throw e; }
};
fs.statSync = statWith(true);
fs.lstatSync = statWith(false);
fs.accessSync = function (path, mode) { spzFs({ op: 'access', path: pathText(path), mode: mode === undefined ? 0 : Number(mode) }, [path]); };
const fds = new Map();
let nextFd = 3;
fs.openSync = function (path, flags, mode) {
  const f = flagsOf(flags, 'r');
  openFile(path, f, modeOf(mode, undefined));
  const fd = nextFd++;
  fds.set(fd, { path: pathText(path), flags: f, pos: 0 });
  return fd;
};
fs.closeSync = function (fd) { if (!fds.delete(fd)) throw badFd('close'); };
const fdEntry = (fd, syscall) => { const e = fds.get(fd); if (!e) throw badFd(syscall); return e; };
let stdinPos = 0;
fs.readSync = function (fd, buffer, offset, length, position) {
  if (offset !== null && typeof offset === 'object') ({ offset, length, position } = offset);
  offset = offset || 0;
  if (length === undefined) length = (buffer.byteLength ?? buffer.length) - offset;
  let bytes;
  if (fd === 0) { const all = Buffer.from(input); bytes = all.slice(stdinPos, stdinPos + length); stdinPos += bytes.length; }
  else {
    const e = fdEntry(fd, 'read');
    if ((e.flags & 3) === 1) throw badFd('read');
    const at = position === null || position === undefined || position < 0 ? e.pos : Number(position);
    bytes = Buffer.from(spzFs({ op: 'read', path: e.path, position: at, length }, [e.path]).data, 'base64');
    if (position === null || position === undefined || position < 0) e.pos += bytes.length;
  }
  // js-exec's Buffer keeps its bytes in _data (no copy(), no indexed writes): byte by byte into the caller's buffer.
  const dst = raw(buffer), src = raw(bytes);
  for (let i = 0; i < src.length; i++) dst[offset + i] = src[i];
  return bytes.length;
};
fs.writeSync = function (fd, data, a, b, c) {
  let bytes, position;
  if (typeof data === 'string') { bytes = Buffer.from(data, typeof b === 'string' ? b : 'utf8'); position = a; }
  else { const all = bytesOf(data); if (a !== null && typeof a === 'object') { c = a.position; b = a.length; a = a.offset; } const off = a || 0; bytes = all.slice(off, b === undefined ? all.length : off + b); position = c; }
  if (fd === 1 || fd === 2) { w(fd, bytes.toString()); return bytes.length; }
  const e = fdEntry(fd, 'write');
  if ((e.flags & 3) === 0) throw badFd('write');
  const explicit = typeof position === 'number' && position >= 0;
  if (e.flags & C.O_APPEND) writeBytes(e.path, bytes, null, 'write');
  else { writeBytes(e.path, bytes, explicit ? position : e.pos, 'write'); if (!explicit) e.pos += bytes.length; }
  return bytes.length;
};
// readFileSync of a descriptor reads from its offset to the end (fd 0, stdin, is the prelude's own).
const readWhole = fs.readFileSync;
fs.readFileSync = function (file, opts) {
  // js-exec's text read decodes as UTF-8 whatever the encoding, and its text ends at a NUL byte: the bytes are read
  // and node's Buffer decodes them.
  const enc = typeof opts === 'string' ? opts : opts && opts.encoding;
  // Descriptor 0 reads what is left of stdin (a second read of a pipe is empty), readSync(0) sharing the offset.
  if (file === 0) { const all = Buffer.from(input), rest = all.slice(stdinPos); stdinPos = all.length; return enc ? rest.toString(enc) : rest; }
  if (file === '/dev/stdin') return readWhole.apply(this, arguments);
  if (typeof file !== 'number') return enc ? readWhole.call(this, file).toString(enc) : readWhole.call(this, file);
  const e = fdEntry(file, 'fstat');
  if ((e.flags & 3) === 1) throw badFd('read');
  const bytes = Buffer.from(spzFs({ op: 'read', path: e.path, position: e.pos, length: 2147483647 }, [e.path]).data, 'base64');
  e.pos += bytes.length;
  return enc ? bytes.toString(enc) : bytes;
};
fs.fstatSync = function (fd) { return fs.statSync(fdEntry(fd, 'fstat').path); };
fs.ftruncateSync = function (fd, len) { spzFs({ op: 'truncate', path: fdEntry(fd, 'ftruncate').path, len: len === undefined ? 0 : Number(len) }, []); };
fs.truncateSync = function (path, len) {
  if (typeof path === 'number') return fs.ftruncateSync(path, len);
  spzFs({ op: 'truncate', path: pathText(path), len: len === undefined ? 0 : Number(len) }, [path]);
};
const timeMs = (t) => (t instanceof Date ? t.getTime() : Number(t) * 1000);
fs.utimesSync = function (path, atime, mtime) { spzFs({ op: 'utimes', path: pathText(path), atime: timeMs(atime), mtime: timeMs(mtime) }, [path]); };
fs.linkSync = function (existing, path) { spzFs({ op: 'link', existing: pathText(existing), path: pathText(path) }, [existing, path]); };
// chmodSync takes a mode as a number or an octal string ('755'), as node's parseFileMode does.
const realChmod = fs.chmodSync;
fs.chmodSync = function (path, mode) { return realChmod.call(this, path, modeOf(mode, mode)); };
// realpathSync walks the path as node's JavaScript realpath does: a missing part is lstat's error for its absolute path.
const realRealpath = fs.realpathSync;
fs.realpathSync = function (path, options) {
  try { return realRealpath.apply(this, arguments); } catch (e) {
    const abs = realRequire('path').resolve(String(pathText(path)));
    const parts = abs.split('/').filter(Boolean);
    for (let i = 1; i <= parts.length; i++) {
      const prefix = '/' + parts.slice(0, i).join('/');
      try { fs.lstatSync(prefix); } catch (err) { if (err && err.syscall) throw err; }
    }
    throw nodeFsError(e, [path]);
  }
};
const realWriteFile = fs.writeFileSync, realAppendFile = fs.appendFileSync, realMkdir = fs.mkdirSync, realCopy = fs.copyFileSync;
// writeFileSync/appendFileSync with a flag or a mode other than the plain one open the file as node would
// (O_EXCL, O_APPEND, the creation mode), then write the bytes.
// node's check of write data: a string, a Buffer, a TypedArray or a DataView (ERR_INVALID_ARG_TYPE otherwise).
const receivedText = (v) => (v === null || v === undefined ? 'Received ' + v : typeof v === 'function' ? 'Received function ' + (v.name || '<anonymous>') : typeof v === 'object' ? 'Received an instance of ' + ((v.constructor && v.constructor.name) || 'Object') : 'Received type ' + typeof v + ' (' + (typeof v === 'bigint' ? v + 'n' : String(v)) + ')');
const checkData = (data) => {
  if (typeof data === 'string' || Buffer.isBuffer(data) || ArrayBuffer.isView(data)) return;
  throw Object.assign(new TypeError('The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. ' + receivedText(data)), { code: 'ERR_INVALID_ARG_TYPE' });
};
const writeWith = (file, data, o, dflt) => {
  if (typeof file === 'number') { fs.writeSync(file, bytesOf(data, o.encoding)); return; }
  const flags = flagsOf(o.flag, dflt);
  openFile(file, flags, modeOf(o.mode, undefined));
  const bytes = bytesOf(data, o.encoding);
  if (bytes.length > 0) writeBytes(file, bytes, flags & C.O_APPEND || flags & C.O_TRUNC ? null : 0, 'write');
};
fs.writeFileSync = function (file, data, options) {
  checkData(data);
  const o = optionsOf(options);
  if (typeof file !== 'number' && (o.flag === undefined || o.flag === 'w') && o.mode === undefined && typeof data === 'string' && plainText(o.encoding)) return realWriteFile.call(this, file, data, options);
  writeWith(file, data, o, 'w');
};
fs.appendFileSync = function (file, data, options) {
  checkData(data);
  const o = optionsOf(options);
  if (typeof file !== 'number' && (o.flag === undefined || o.flag === 'a') && o.mode === undefined && typeof data === 'string' && plainText(o.encoding)) return realAppendFile.call(this, file, data, options);
  writeWith(file, data, o, 'a');
};
fs.mkdirSync = function (path, options) {
  const o = typeof options === 'number' || typeof options === 'string' ? { mode: options } : options || {};
  if (!o.recursive && o.mode === undefined) return realMkdir.call(this, path, options);
  const r = spzFs({ op: 'mkdir', path: pathText(path), recursive: Boolean(o.recursive), mode: modeOf(o.mode, undefined) }, [path]);
  return o.recursive ? (r.first === null ? undefined : r.first) : undefined;
};
// mkdtempSync: the prefix and six random letters or digits, made 0700; its errors name the template (prefix + XXXXXX).
const TEMP_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
fs.mkdtempSync = function (prefix, options) {
  const text = String(pathText(prefix));
  for (let tries = 0; ; tries++) {
    let name = text;
    for (let i = 0; i < 6; i++) name += TEMP_CHARS[Math.floor(Math.random() * TEMP_CHARS.length)];
    try { spzFs({ op: 'mkdir', path: name, recursive: false, mode: 0o700 }, [name]); return name; } catch (e) {
      if (e.code === 'EEXIST' && tries < 100) continue;
      throw nodeFsError(new Error(e.code + ': ' + e.message.split(': ')[1].split(', ')[0] + ', mkdtemp'), [text + 'XXXXXX']);
    }
  }
};
fs.unlinkSync = function (path) { spzFs({ op: 'unlink', path: pathText(path) }, [path]); };
fs.rmdirSync = function (path, options) {
  if (options && options.recursive) return fs.rmSync(path, { recursive: true });
  spzFs({ op: 'rmdir', path: pathText(path) }, [path]);
};
fs.rmSync = function (path, options) { const o = options || {}; spzFs({ op: 'rm', path: pathText(path), recursive: Boolean(o.recursive), force: Boolean(o.force) }, [path]); };
fs.copyFileSync = function (src, dest, mode) {
  if (mode & C.COPYFILE_EXCL) { let there = true; try { fs.lstatSync(dest); } catch (e) { there = false; } if (there) throw nodeFsError(new Error('EEXIST: file already exists, copyfile'), [src, dest]); }
  const r = realCopy.call(this, src, dest);
  // libuv's copyfile gives the copy the source's mode (fchmod), whatever the umask.
  try { fs.chmodSync(dest, fs.statSync(src).mode & 0o7777); } catch (e) {}
  return r;
};
`;
