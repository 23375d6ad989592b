/**
 * The worker thread that runs one `perl` of the shell engine: Perl 5 compiled to WebAssembly (the npm package
 * `@6over3/zeroperl-ts`, a WASI reactor) driven through perl's own command line (`zeroperl_init_with_args`, so every
 * switch is perl's), with a WASI layer of its own whose files are the sprite's. Each file operation is a synchronous
 * request to the main thread (perl-runner.ts), which answers it from the command's filesystem (`ctx.fs`, with the
 * sprite user's permissions): the worker posts the request on its port and sleeps on a shared flag until the answer is
 * there (`Atomics.wait`, then `receiveMessageOnPort`). Output goes to the main thread as it is written.
 *
 * A file opened by perl is read whole when opened and written back whole when its last descriptor closes (or at
 * fsync, or when perl ends), so perl's reads, writes, seeks and truncations are on a copy of its own for the time it
 * holds the file open.
 *
 * This function is the worker's whole program: perl-runner.ts starts it from its source text (`String(fn)`), so it
 * must not use anything from outside its own body (no imports, no module variables) but `require`, which a worker
 * started from source has.
 * @see https://github.com/WebAssembly/WASI/blob/main/legacy/preview1/docs.md (the calls and their layouts)
 */
export function perlWorkerMain(): void {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const threads = require('node:worker_threads') as typeof import('node:worker_threads');
  const data = threads.workerData as WorkerInput;
  const port = data.port;
  const flag = new Int32Array(data.flag);

  // WASI errno values (preview1).
  const E = { BADF: 8, EXIST: 20, INVAL: 28, IO: 29, ISDIR: 31, NOENT: 44, NOSYS: 52, NOTDIR: 54, NOTEMPTY: 55, SPIPE: 70, ACCES: 2, PERM: 63 };
  // WASI file types.
  const T = { UNKNOWN: 0, CHAR: 2, DIR: 3, FILE: 4, SYMLINK: 7 };

  /** One synchronous request to the main thread: its answer. */
  const ask = (req: Record<string, unknown>): Reply => {
    port.postMessage(req);
    // The flag only says an answer was posted; the answer itself is read from the port, and the wait goes on (in
    // short rounds) until it is there, so a wake-up that races the message's arrival never reads as "no answer".
    for (let round = 0; ; round++) {
      Atomics.wait(flag, 0, 0, round === 0 ? undefined : 10);
      Atomics.store(flag, 0, 0);
      const got = threads.receiveMessageOnPort(port);
      if (got) return got.message as Reply;
    }
  };

  interface Node {
    path: string;
    data: Uint8Array;
    size: number;
    dirty: boolean;
    refs: number;
    /** The mode the file had when perl opened it (for -i's replacement). */
    mode: number;
    /** The path perl opened it by (a rename moves `path`, not this). */
    openedAs: string;
    mtimeMs: number;
    ino: number;
  }
  type Entry =
    | { kind: 'stdin'; pos: number }
    | { kind: 'out'; fd: 1 | 2 }
    | { kind: 'null' }
    | { kind: 'zero'; random: boolean }
    | { kind: 'dir'; path: string; entries: Array<{ name: string; type: number; ino: number }> | null }
    | { kind: 'file'; node: Node; pos: number; append: boolean; read: boolean; write: boolean }
    | { kind: 'ctl'; reply: Uint8Array; pos: number }
    | { kind: 'lib'; data: Uint8Array; pos: number };

  const fds = new Map<number, Entry>();
  const nodes = new Map<string, Node>();
  fds.set(0, { kind: 'stdin', pos: 0 });
  fds.set(1, { kind: 'out', fd: 1 });
  fds.set(2, { kind: 'out', fd: 2 });
  fds.set(3, { kind: 'dir', path: '/', entries: null });
  fds.set(data.ctlFd, { kind: 'ctl', reply: new Uint8Array(0), pos: 0 });
  const stdin = data.stdin;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  /** The errno of the last file operation that failed: what perl croaks with when it cannot open its script. */
  let lastErrno = 0;
  /** What the prelude reported about how perl is ending (see perl-prelude.ts). */
  let report: { kind: 'exit' | 'die'; values: number[] } | null = null;
  let umask = data.umask;
  /** Files this run made with O_CREAT|O_EXCL (the temporary file -i writes), by their current path. */
  const fresh = new Set<string>();
  /** Whether perl got as far as running the program (the prelude's INIT block said so). */
  let running = false;

  class Exit {
    constructor(readonly code: number) {}
  }

  let memory: WebAssembly.Memory;
  const view = () => new DataView(memory.buffer);
  const bytes = () => new Uint8Array(memory.buffer);
  const text = (ptr: number, len: number) => decoder.decode(new Uint8Array(memory.buffer, ptr, len));

  const normalize = (p: string): string => {
    const out: string[] = [];
    for (const part of p.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') out.pop();
      else out.push(part);
    }
    return `/${out.join('/')}`;
  };
  const pathAt = (dirfd: number, ptr: number, len: number): string | null => {
    const dir = fds.get(dirfd);
    if (!dir || dir.kind !== 'dir') return null;
    const rel = text(ptr, len);
    return normalize(rel.startsWith('/') ? rel : `${dir.path}/${rel}`);
  };

  const fail = (code: number): number => code;

  const writeFilestat = (ptr: number, st: { type: number; size: number; mtimeMs: number; ino: number; nlink: number }) => {
    const v = view();
    const ns = BigInt(Math.round(st.mtimeMs * 1e6));
    v.setBigUint64(ptr, 1n, true);
    v.setBigUint64(ptr + 8, BigInt(st.ino), true);
    v.setUint8(ptr + 16, st.type);
    v.setBigUint64(ptr + 24, BigInt(st.nlink), true);
    v.setBigUint64(ptr + 32, BigInt(st.size), true);
    v.setBigUint64(ptr + 40, ns, true);
    v.setBigUint64(ptr + 48, ns, true);
    v.setBigUint64(ptr + 56, ns, true);
  };
  const typeCode = (t: string): number => (t === 'dir' ? T.DIR : t === 'symlink' ? T.SYMLINK : t === 'file' ? T.FILE : T.CHAR);

  /** Sends a file's bytes back to the sprite when perl changed them. */
  const flush = (node: Node): number => {
    if (!node.dirty) return 0;
    const r = ask({ op: 'write', path: node.path, data: node.data.slice(0, node.size) });
    if (r.errno) return r.errno;
    node.dirty = false;
    return 0;
  };
  const flushAll = () => {
    for (const node of nodes.values()) flush(node);
  };

  const iovecs = (ptr: number, count: number): Uint8Array[] => {
    const v = view();
    const out: Uint8Array[] = [];
    for (let i = 0; i < count; i++) out.push(new Uint8Array(memory.buffer, v.getUint32(ptr + 8 * i, true), v.getUint32(ptr + 8 * i + 4, true)));
    return out;
  };

  /** The devices and stdio names perl may open, as Linux gives them to a process whose stdio the engine holds. */
  const special = (p: string): Entry | null => {
    const fd = /^\/(?:dev\/fd|proc\/self\/fd)\/([012])$/.exec(p)?.[1];
    const stdio = p === '/dev/stdin' ? 0 : p === '/dev/stdout' ? 1 : p === '/dev/stderr' ? 2 : fd !== undefined ? Number(fd) : -1;
    if (stdio === 0) return { kind: 'stdin', pos: 0 };
    if (stdio === 1 || stdio === 2) return { kind: 'out', fd: stdio };
    if (p === '/dev/null') return { kind: 'null' };
    if (p === '/dev/zero' || p === '/dev/urandom' || p === '/dev/random') return { kind: 'zero', random: p !== '/dev/zero' };
    if (p === data.libPath) return { kind: 'dir', path: p, entries: [] };
    if (p === `${data.libPath}/${data.preludeName}`) return { kind: 'lib', data: encoder.encode(data.prelude), pos: 0 };
    return null;
  };

  let nextFd = 4;
  const allocate = (entry: Entry): number => {
    while (fds.has(nextFd)) nextFd++;
    const fd = nextFd++;
    fds.set(fd, entry);
    return fd;
  };

  /** Answers a request of the prelude on its control descriptor (perl-prelude.ts says which). */
  const control = (line: string): string => {
    const [verb = '', ...args] = line.replace(/\n$/, '').split('\t');
    if (verb === 'run') {
      running = true;
      return '';
    }
    if (verb === 'exit' || verb === 'die') {
      report = { kind: verb, values: args.map(Number) };
      return '';
    }
    if (verb === 'refuse') {
      port.postMessage({ op: 'out', fd: 2, data: encoder.encode(`perl: ${args[0]} is not available in the shell engine; run spritzer with --exec sandbox\n`) });
      flushAll();
      throw new Exit(255);
    }
    if (verb === 'umask') {
      const old = umask;
      if (args[0] !== undefined && args[0] !== '') umask = Number(args[0]) & 0o777;
      ask({ op: 'umask', umask });
      return String(old);
    }
    if (verb === 'stat') {
      const target = args[0] ?? '';
      let path: string | null = null;
      if (target.startsWith('fd:')) {
        const e = fds.get(Number(target.slice(3)));
        path = e?.kind === 'file' ? e.node.path : e?.kind === 'dir' ? e.path : null;
      } else path = normalize(target);
      if (path === null) return '';
      const r = ask({ op: 'stat', path, follow: args[1] !== 'l' });
      return r.errno || !r.stat ? '' : `${r.stat.mode} ${r.stat.uid} ${r.stat.gid}`;
    }
    if (verb === 'chmod' || verb === 'chown') {
      const path = normalize(args.at(-1) ?? '');
      const node = nodes.get(path);
      if (node) flush(node);
      const r = ask(verb === 'chmod' ? { op: 'chmod', path, mode: Number(args[0]) } : { op: 'chown', path, uid: Number(args[0]), gid: Number(args[1]) });
      return String(r.errno ?? 0);
    }
    return '';
  };
  const wasi: Record<string, (...a: never[]) => number> = {
    environ_sizes_get(countPtr: number, sizePtr: number) {
      view().setUint32(countPtr, data.env.length, true);
      view().setUint32(sizePtr, data.env.reduce((n, e) => n + encoder.encode(e).length + 1, 0), true);
      return 0;
    },
    environ_get(ptrs: number, buf: number) {
      for (const e of data.env) {
        view().setUint32(ptrs, buf, true);
        ptrs += 4;
        const b = encoder.encode(`${e}\0`);
        bytes().set(b, buf);
        buf += b.length;
      }
      return 0;
    },
    clock_time_get(id: number, _precision: bigint, ptr: number) {
      const ns = id === 0 ? BigInt(Date.now()) * 1_000_000n : BigInt(Math.round(performance.now() * 1e6));
      view().setBigUint64(ptr, ns, true);
      return 0;
    },
    fd_close(fd: number) {
      const e = fds.get(fd);
      if (!e || fd <= 2 || fd === data.ctlFd) return e ? 0 : fail(E.BADF);
      fds.delete(fd);
      if (fd < nextFd) nextFd = Math.max(4, fd);
      if (e.kind === 'file' && --e.node.refs === 0) {
        const errno = flush(e.node);
        nodes.delete(e.node.path);
        if (errno) return fail(errno);
      }
      return 0;
    },
    fd_fdstat_get(fd: number, ptr: number) {
      const e = fds.get(fd);
      const v = view();
      // perl's own modules are read from memory under descriptors the build numbers itself (from 3 up), which
      // this table never sees; PerlIO asks their flags: answer as for a file, as Linux does for a real one.
      if (!e && fd < 32) {
        new Uint8Array(memory.buffer, ptr, 24).fill(0);
        v.setUint8(ptr, T.FILE);
        v.setBigUint64(ptr + 8, 0x1fffffffn, true);
        v.setBigUint64(ptr + 16, 0x1fffffffn, true);
        return 0;
      }
      if (!e) return fail(E.BADF);
      v.setUint8(ptr, e.kind === 'dir' ? T.DIR : e.kind === 'file' || e.kind === 'lib' ? T.FILE : e.kind === 'null' || e.kind === 'zero' ? T.CHAR : T.UNKNOWN);
      v.setUint16(ptr + 2, e.kind === 'file' && e.append ? 1 : 0, true);
      v.setBigUint64(ptr + 8, 0x1fffffffn, true);
      v.setBigUint64(ptr + 16, 0x1fffffffn, true);
      return 0;
    },
    fd_fdstat_set_flags(fd: number, flags: number) {
      const e = fds.get(fd);
      if (!e) return fail(E.BADF);
      if (e.kind === 'file') e.append = (flags & 1) !== 0;
      return 0;
    },
    fd_filestat_get(fd: number, ptr: number) {
      const e = fds.get(fd);
      if (!e) return fail(E.BADF);
      if (e.kind === 'file') {
        writeFilestat(ptr, { type: T.FILE, size: e.node.size, mtimeMs: e.node.mtimeMs, ino: e.node.ino, nlink: 1 });
        return 0;
      }
      if (e.kind === 'dir' && e.path !== data.libPath) {
        const r = ask({ op: 'stat', path: e.path, follow: true });
        if (r.errno || !r.stat) return fail(r.errno ?? E.IO);
        writeFilestat(ptr, { ...r.stat, type: typeCode(r.stat.type) });
        return 0;
      }
      const type = e.kind === 'dir' ? T.DIR : e.kind === 'lib' ? T.FILE : e.kind === 'null' || e.kind === 'zero' ? T.CHAR : T.UNKNOWN;
      writeFilestat(ptr, { type, size: e.kind === 'lib' ? e.data.length : 0, mtimeMs: Date.now(), ino: 0, nlink: 1 });
      return 0;
    },
    fd_filestat_set_size(fd: number, size: bigint) {
      const e = fds.get(fd);
      if (!e || e.kind !== 'file') return fail(e ? E.INVAL : E.BADF);
      if (!e.write) return fail(E.INVAL);
      const n = Number(size);
      if (n > e.node.data.length) {
        const grown = new Uint8Array(n);
        grown.set(e.node.data.subarray(0, e.node.size));
        e.node.data = grown;
      } else e.node.data.fill(0, n, e.node.size);
      e.node.size = n;
      e.node.dirty = true;
      return 0;
    },
    fd_filestat_set_times(fd: number, _atim: bigint, mtim: bigint, flags: number) {
      const e = fds.get(fd);
      if (!e) return fail(E.BADF);
      if (e.kind !== 'file') return 0;
      flush(e.node);
      const mtimeMs = flags & 8 ? Date.now() : flags & 4 ? Number(mtim / 1_000_000n) : null;
      if (mtimeMs === null) return 0;
      const r = ask({ op: 'utimes', path: e.node.path, mtimeMs });
      if (!r.errno) e.node.mtimeMs = mtimeMs;
      return r.errno ? fail(r.errno) : 0;
    },
    fd_prestat_get(fd: number, ptr: number) {
      if (fd !== 3) return E.BADF;
      view().setUint8(ptr, 0);
      view().setUint32(ptr + 4, 1, true);
      return 0;
    },
    fd_prestat_dir_name(fd: number, ptr: number) {
      if (fd !== 3) return E.BADF;
      bytes()[ptr] = 0x2f;
      return 0;
    },
    fd_read(fd: number, iovs: number, count: number, nread: number) {
      const e = fds.get(fd);
      if (!e) return fail(E.BADF);
      let total = 0;
      if (e.kind === 'ctl' && e.pos >= e.reply.length) {
        view().setUint32(nread, 0, true);
        return 0;
      }
      for (const buf of iovecs(iovs, count)) {
        let n = 0;
        if (e.kind === 'stdin' || e.kind === 'file' || e.kind === 'ctl' || e.kind === 'lib') {
          const src = e.kind === 'stdin' ? stdin : e.kind === 'file' ? e.node.data.subarray(0, e.node.size) : e.kind === 'ctl' ? e.reply : e.data;
          if (e.kind === 'file' && !e.read) return fail(E.BADF);
          n = Math.max(0, Math.min(buf.length, src.length - e.pos));
          buf.set(src.subarray(e.pos, e.pos + n));
          e.pos += n;
        } else if (e.kind === 'zero') {
          if (e.random) crypto.getRandomValues(buf.subarray(0, Math.min(buf.length, 65536)));
          else buf.fill(0);
          n = e.random ? Math.min(buf.length, 65536) : buf.length;
        } else if (e.kind === 'dir') return fail(E.ISDIR);
        else if (e.kind === 'out') return fail(E.BADF);
        total += n;
        if (n < buf.length) break;
      }
      view().setUint32(nread, total, true);
      return 0;
    },
    fd_readdir(fd: number, buf: number, len: number, cookie: bigint, usedPtr: number) {
      const e = fds.get(fd);
      if (!e || e.kind !== 'dir') return fail(e ? E.NOTDIR : E.BADF);
      if (e.entries === null) {
        const r = ask({ op: 'readdir', path: e.path });
        if (r.errno) return fail(r.errno);
        e.entries = [{ name: '.', type: T.DIR, ino: 0 }, { name: '..', type: T.DIR, ino: 0 }, ...(r.entries ?? []).map((x) => ({ name: x.name, type: typeCode(x.type), ino: x.ino }))];
      }
      let at = buf;
      const end = buf + len;
      for (let i = Number(cookie); i < e.entries.length && at < end; i++) {
        const ent = e.entries[i]!;
        const name = encoder.encode(ent.name);
        const rec = new Uint8Array(24 + name.length);
        const dv = new DataView(rec.buffer);
        dv.setBigUint64(0, BigInt(i + 1), true);
        dv.setBigUint64(8, BigInt(ent.ino || i + 1), true);
        dv.setUint32(16, name.length, true);
        dv.setUint8(20, ent.type);
        rec.set(name, 24);
        const n = Math.min(rec.length, end - at);
        bytes().set(rec.subarray(0, n), at);
        at += n;
      }
      view().setUint32(usedPtr, at - buf, true);
      return 0;
    },
    fd_renumber(from: number, to: number) {
      const e = fds.get(from);
      if (!e || !fds.has(to)) return fail(E.BADF);
      fds.set(to, e);
      fds.delete(from);
      return 0;
    },
    fd_seek(fd: number, offset: bigint, whence: number, ptr: number) {
      const e = fds.get(fd);
      if (!e) return fail(E.BADF);
      if (e.kind === 'dir' || e.kind === 'null' || e.kind === 'zero') {
        view().setBigUint64(ptr, 0n, true);
        return 0;
      }
      if (e.kind !== 'file' && e.kind !== 'lib') return fail(E.SPIPE);
      const size = e.kind === 'file' ? e.node.size : e.data.length;
      const to = (whence === 0 ? 0 : whence === 1 ? e.pos : size) + Number(offset);
      if (to < 0) return fail(E.INVAL);
      e.pos = to;
      view().setBigUint64(ptr, BigInt(to), true);
      return 0;
    },
    fd_sync(fd: number) {
      const e = fds.get(fd);
      if (!e) return fail(E.BADF);
      return e.kind === 'file' ? flush(e.node) : 0;
    },
    fd_tell(fd: number, ptr: number) {
      const e = fds.get(fd);
      if (!e && fd < 32) {
        // One of the build's in-memory module descriptors (see fd_fdstat_get): its reads never come here.
        view().setBigUint64(ptr, 0n, true);
        return 0;
      }
      if (!e) return fail(E.BADF);
      if (e.kind === 'out' || e.kind === 'stdin' || e.kind === 'ctl') return fail(E.SPIPE);
      view().setBigUint64(ptr, BigInt(e.kind === 'file' || e.kind === 'lib' ? e.pos : 0), true);
      return 0;
    },
    fd_write(fd: number, iovs: number, count: number, nwritten: number) {
      const e = fds.get(fd);
      if (!e) return fail(E.BADF);
      let total = 0;
      for (const buf of iovecs(iovs, count)) {
        if (e.kind === 'out') port.postMessage({ op: 'out', fd: e.fd, data: buf.slice() });
        else if (e.kind === 'ctl') {
          e.reply = encoder.encode(control(decoder.decode(buf)));
          e.pos = 0;
        } else if (e.kind === 'file') {
          if (!e.write) return fail(E.BADF);
          const node = e.node;
          if (e.append) e.pos = node.size;
          const need = e.pos + buf.length;
          if (need > node.data.length) {
            const grown = new Uint8Array(Math.max(need, node.data.length * 2, 4096));
            grown.set(node.data.subarray(0, node.size));
            node.data = grown;
          }
          if (e.pos > node.size) node.data.fill(0, node.size, e.pos);
          node.data.set(buf, e.pos);
          e.pos = need;
          node.size = Math.max(node.size, need);
          node.dirty = true;
        } else if (e.kind !== 'null') return fail(E.BADF);
        total += buf.length;
      }
      view().setUint32(nwritten, total, true);
      return 0;
    },
    path_create_directory(dirfd: number, ptr: number, len: number) {
      const path = pathAt(dirfd, ptr, len);
      if (path === null) return fail(E.BADF);
      const r = ask({ op: 'mkdir', path });
      return r.errno ? fail(r.errno) : 0;
    },
    path_filestat_get(dirfd: number, flags: number, ptr: number, len: number, out: number) {
      const path = pathAt(dirfd, ptr, len);
      if (path === null) return fail(E.BADF);
      const dev = special(path);
      if (dev) {
        writeFilestat(out, { type: dev.kind === 'dir' ? T.DIR : dev.kind === 'lib' ? T.FILE : T.CHAR, size: dev.kind === 'lib' ? dev.data.length : 0, mtimeMs: Date.now(), ino: 0, nlink: 1 });
        return 0;
      }
      const open = nodes.get(path);
      const r = ask({ op: 'stat', path, follow: (flags & 1) !== 0 });
      if (r.errno || !r.stat) return fail(r.errno ?? E.IO);
      writeFilestat(out, { ...r.stat, type: typeCode(r.stat.type), ...(open && r.stat.type === 'file' ? { size: open.size } : {}) });
      return 0;
    },
    path_filestat_set_times(dirfd: number, _flags: number, ptr: number, len: number, _atim: bigint, mtim: bigint, fstFlags: number) {
      const path = pathAt(dirfd, ptr, len);
      if (path === null) return fail(E.BADF);
      const mtimeMs = fstFlags & 8 ? Date.now() : fstFlags & 4 ? Number(mtim / 1_000_000n) : null;
      const node = nodes.get(path);
      if (node) flush(node);
      const r = ask({ op: 'utimes', path, mtimeMs });
      if (!r.errno && node && mtimeMs !== null) node.mtimeMs = mtimeMs;
      return r.errno ? fail(r.errno) : 0;
    },
    path_link(oldfd: number, _flags: number, oldPtr: number, oldLen: number, newfd: number, newPtr: number, newLen: number) {
      const from = pathAt(oldfd, oldPtr, oldLen);
      const to = pathAt(newfd, newPtr, newLen);
      if (from === null || to === null) return fail(E.BADF);
      const node = nodes.get(from);
      if (node) flush(node);
      const r = ask({ op: 'link', from, to });
      return r.errno ? fail(r.errno) : 0;
    },
    path_open(dirfd: number, _lookup: number, ptr: number, len: number, oflags: number, rights: bigint, _inheriting: bigint, fdflags: number, out: number) {
      const path = pathAt(dirfd, ptr, len);
      if (path === null) return fail(E.BADF);
      const read = (rights & 2n) !== 0n;
      const write = (rights & 64n) !== 0n;
      const dev = special(path);
      if (dev) {
        view().setUint32(out, allocate(dev), true);
        return 0;
      }
      const create = (oflags & 1) !== 0;
      const directory = (oflags & 2) !== 0;
      const excl = (oflags & 4) !== 0;
      const trunc = (oflags & 8) !== 0;
      const held = nodes.get(path);
      if (held && !(create && excl)) {
        if (write) {
          const r = ask({ op: 'access', path, want: 2 });
          if (r.errno) return fail(r.errno);
        }
        if (trunc && write) {
          held.size = 0;
          held.dirty = true;
        }
        held.refs++;
        view().setUint32(out, allocate({ kind: 'file', node: held, pos: 0, append: (fdflags & 1) !== 0, read, write }), true);
        return 0;
      }
      const r = ask({ op: 'open', path, create, excl, trunc, write, read, directory });
      if (r.errno) {
        lastErrno = r.errno;
        return r.errno;
      }
      if (r.dir) {
        view().setUint32(out, allocate({ kind: 'dir', path, entries: null }), true);
        return 0;
      }
      const content = r.data ?? new Uint8Array(0);
      const node: Node = { path, data: content, size: content.length, dirty: false, refs: 1, mode: r.stat?.mode ?? 0o644, openedAs: path, mtimeMs: r.stat?.mtimeMs ?? Date.now(), ino: r.stat?.ino ?? 0 };
      if (create && excl && r.created === true) fresh.add(path);
      nodes.set(path, node);
      view().setUint32(out, allocate({ kind: 'file', node, pos: 0, append: (fdflags & 1) !== 0, read, write }), true);
      return 0;
    },
    path_readlink(dirfd: number, ptr: number, len: number, buf: number, bufLen: number, usedPtr: number) {
      const path = pathAt(dirfd, ptr, len);
      if (path === null) return fail(E.BADF);
      const r = ask({ op: 'readlink', path });
      if (r.errno) return fail(r.errno);
      const b = encoder.encode(r.target ?? '').subarray(0, bufLen);
      bytes().set(b, buf);
      view().setUint32(usedPtr, b.length, true);
      return 0;
    },
    path_remove_directory(dirfd: number, ptr: number, len: number) {
      const path = pathAt(dirfd, ptr, len);
      if (path === null) return fail(E.BADF);
      const r = ask({ op: 'rmdir', path });
      return r.errno ? fail(r.errno) : 0;
    },
    path_rename(oldfd: number, oldPtr: number, oldLen: number, newfd: number, newPtr: number, newLen: number) {
      const from = pathAt(oldfd, oldPtr, oldLen);
      const to = pathAt(newfd, newPtr, newLen);
      if (from === null || to === null) return fail(E.BADF);
      const moving = nodes.get(from);
      if (moving) flush(moving);
      // perl -i writes a fresh temporary file and renames it over the file it read, giving it that file's mode
      // first (fchmod, which WASI lacks): the file it still holds open under the name replaced.
      const original = fresh.has(from) ? [...nodes.values()].find((n) => n !== moving && n.openedAs === to) : undefined;
      const r = ask({ op: 'rename', from, to, mode: original ? original.mode & 0o7777 : undefined });
      if (r.errno) return fail(r.errno);
      if (fresh.delete(from)) fresh.add(to);
      const replaced = nodes.get(to);
      if (replaced && replaced !== moving) {
        nodes.delete(to);
        replaced.path = `${to}\0replaced`;
        replaced.dirty = false;
      }
      if (moving) {
        nodes.delete(from);
        moving.path = to;
        nodes.set(to, moving);
      }
      return 0;
    },
    path_symlink(oldPtr: number, oldLen: number, dirfd: number, newPtr: number, newLen: number) {
      const target = text(oldPtr, oldLen);
      const path = pathAt(dirfd, newPtr, newLen);
      if (path === null) return fail(E.BADF);
      const r = ask({ op: 'symlink', target, path });
      return r.errno ? fail(r.errno) : 0;
    },
    path_unlink_file(dirfd: number, ptr: number, len: number) {
      const path = pathAt(dirfd, ptr, len);
      if (path === null) return fail(E.BADF);
      const r = ask({ op: 'unlink', path });
      if (r.errno) return fail(r.errno);
      const node = nodes.get(path);
      // An unlinked file stays readable through its open descriptors, and is not written back.
      if (node) {
        nodes.delete(path);
        node.path = `${path}\0unlinked`;
        node.dirty = false;
      }
      return 0;
    },
    poll_oneoff(inPtr: number, outPtr: number, count: number, neventsPtr: number) {
      const v = view();
      let waitNs = 0n;
      for (let i = 0; i < count; i++) {
        const sub = inPtr + 48 * i;
        if (v.getUint8(sub + 8) === 0) {
          const timeout = v.getBigUint64(sub + 24, true);
          const absolute = (v.getUint16(sub + 40, true) & 1) !== 0;
          const now = BigInt(Date.now()) * 1_000_000n;
          const ns = absolute ? timeout - now : timeout;
          if (ns > waitNs) waitNs = ns;
        }
      }
      if (waitNs > 0n) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(waitNs / 1_000_000n));
      for (let i = 0; i < count; i++) {
        const ev = outPtr + 32 * i;
        new Uint8Array(memory.buffer, ev, 32).fill(0);
        v.setBigUint64(ev, v.getBigUint64(inPtr + 48 * i, true), true);
        v.setUint8(ev + 10, v.getUint8(inPtr + 48 * i + 8));
      }
      v.setUint32(neventsPtr, count, true);
      return 0;
    },
    proc_exit(code: number) {
      flushAll();
      throw new Exit(code);
    },
    random_get(ptr: number, len: number) {
      for (let at = 0; at < len; at += 65536) crypto.getRandomValues(new Uint8Array(memory.buffer, ptr + at, Math.min(65536, len - at)));
      return 0;
    },
  };

  const instance = new WebAssembly.Instance(data.module, {
    wasi_snapshot_preview1: wasi as unknown as WebAssembly.ModuleImports,
    env: { call_host_function: () => 0 },
  });
  const x = instance.exports as unknown as PerlExports;
  memory = x.memory;
  x._initialize();
  const cstring = (s: string): number => {
    const b = encoder.encode(`${s}\0`);
    const p = x.malloc(b.length);
    bytes().set(b, p);
    return p;
  };
  const argvOf = (args: string[]): number => {
    const list = x.malloc(4 * (args.length + 1));
    args.forEach((a, i) => view().setUint32(list + 4 * i, cstring(a), true));
    view().setUint32(list + 4 * args.length, 0, true);
    return list;
  };

  let code: number;
  try {
    // A first interpreter only moves wasi-libc's current directory (which outlives it) to the shell's.
    if (data.cwd !== '/') {
      x.zeroperl_init();
      const hex = [...encoder.encode(data.cwd)].map((b) => b.toString(16).padStart(2, '0')).join('');
      x.zeroperl_eval(cstring(`chdir(pack("H*", "${hex}"))`), 0, 0, 0);
      x.zeroperl_free_interpreter();
    }
    lastErrno = 0;
    report = null;
    const rc = x.zeroperl_init_with_args(data.argv.length, argvOf(data.argv));
    x.zeroperl_free_interpreter();
    flushAll();
    // perl_run's 0 (a program that ended well, or -c's syntax OK) is zeroperl's 0; its failures while compiling are 1.
    code = running || rc === 0 ? rc : -1;
  } catch (err) {
    if (!(err instanceof Exit)) {
      flushAll();
      ask({ op: 'done', code: 255, crash: String((err as Error)?.message ?? err), report, lastErrno, running });
      return;
    }
    code = err.code;
    running = true;
  }
  ask({ op: 'done', code, report, lastErrno, running });

  interface Reply {
    errno?: number;
    stat?: { type: string; size: number; mtimeMs: number; ino: number; nlink: number; mode: number; uid: number; gid: number };
    data?: Uint8Array;
    dir?: boolean;
    created?: boolean;
    entries?: Array<{ name: string; type: string; ino: number }>;
    target?: string;
  }
  interface PerlExports {
    memory: WebAssembly.Memory;
    _initialize(): void;
    malloc(n: number): number;
    zeroperl_init(): number;
    zeroperl_eval(code: number, ctx: number, argc: number, argv: number): number;
    zeroperl_init_with_args(argc: number, argv: number): number;
    zeroperl_free_interpreter(): void;
  }
}

/** What the main thread gives the worker (perl-runner.ts). */
export interface WorkerInput {
  module: WebAssembly.Module;
  argv: string[];
  /** `NAME=value` strings. */
  env: string[];
  stdin: Uint8Array;
  cwd: string;
  umask: number;
  /** The descriptor the prelude talks to the engine on. */
  ctlFd: number;
  /** The directory (outside the sprite's tree) the prelude module is read from, and its file name. */
  libPath: string;
  preludeName: string;
  prelude: string;
  flag: SharedArrayBuffer;
  port: import('node:worker_threads').MessagePort;
}
