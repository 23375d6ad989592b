/**
 * Runs one `perl` of the shell engine in a worker thread (perl-worker.ts) and answers its file requests from the
 * command's filesystem, as the sprite user (or root under sudo) may use it: every open, stat, readdir, rename,
 * unlink, mkdir, link, chmod goes through `ctx.fs` (bash-fs.ts checks the permissions), so perl sees and changes the
 * sprite's own files and nothing else. Loaded only when perl runs (perl-command.ts imports it lazily); the
 * WebAssembly module is compiled once per process and shared by every run (each run instantiates it afresh in its
 * worker). The worker ends when perl does, or is terminated at the exec's deadline or when the exec is killed.
 * @see docs/fidelity.md "perl"
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { IFileSystem } from 'just-bash';
import { perlWorkerMain, type WorkerInput } from './perl-worker.ts';
import { PRELUDE_MODULE, preludeSource } from './perl-prelude.ts';
import { SPRITE_GID, SPRITE_UID } from '../../../../protocol/sprite-tree.ts';
import { processGroups, ROOT_ACCOUNT, SPRITE_ACCOUNT } from '../accounts.ts';

/** The most memory (in 64 KiB WebAssembly pages) one perl may use: 1 GiB; past it perl dies "Out of memory!". */
export const PERL_MAX_PAGES = 16384;
/** The descriptor perl's prelude asks the engine on. */
const CTL_FD = 1000;
/** A directory no sprite path can name (a NUL-free name under `/` that bash-fs.ts never serves): the prelude's. */
const LIB_DIR = '/\u0001spritzer-perl';

/** What one perl run needs from its command. */
export interface PerlRun {
  /** perl's arguments after its name. */
  args: string[];
  stdin: Uint8Array;
  cwd: string;
  env: Record<string, string>;
  fs: IFileSystem;
  /** The user perl runs as: 1001 (the sprite user) or 0 (root, under sudo). */
  uid: number;
  umask: number;
  /** Wall-clock limit in ms (Infinity: none). */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** How the run ended. `timedOut`: stopped at `timeoutMs`; `aborted`: the exec was killed. */
export interface PerlResult {
  stdout: Uint8Array;
  stderr: Uint8Array;
  exitCode: number;
  /**
   * The lengths of the alternating runs of output as perl wrote them, stdout first (stdout in bytes, stderr in
   * characters of its UTF-8 text): a result's `outputOrder` (output-order.ts).
   */
  order: number[];
  timedOut?: boolean;
  aborted?: boolean;
}

let compiled: Promise<WebAssembly.Module> | null = null;

/**
 * The zeroperl module, compiled once: its bytes with the memory given a maximum of {@link PERL_MAX_PAGES} (the
 * module declares none, so a runaway perl could take 4 GiB).
 */
export function perlModule(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const path = createRequire(import.meta.url).resolve('@6over3/zeroperl-ts/zeroperl.wasm');
    return WebAssembly.compile(withMemoryMax(new Uint8Array(await readFile(path)), PERL_MAX_PAGES));
  })();
  compiled.catch(() => (compiled = null));
  return compiled;
}

/**
 * `wasm` with its (one, defined) memory's limits set to its own minimum and at most `pages` pages.
 * @throws when the module has no memory section of one memory
 * @see https://webassembly.github.io/spec/core/binary/modules.html#memory-section
 */
export function withMemoryMax(wasm: Uint8Array, pages: number): Uint8Array<ArrayBuffer> {
  let p = 8;
  const leb = (): number => {
    let r = 0;
    let shift = 0;
    let b: number;
    do {
      b = wasm[p++]!;
      r += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return r;
  };
  const encode = (n: number): number[] => {
    const out: number[] = [];
    do {
      let b = n & 0x7f;
      n = Math.floor(n / 128);
      if (n > 0) b |= 0x80;
      out.push(b);
    } while (n > 0);
    return out;
  };
  while (p < wasm.length) {
    const at = p;
    const id = wasm[p++]!;
    const size = leb();
    const body = p;
    if (id === 5) {
      if (leb() !== 1) break;
      const flags = wasm[p++]!;
      const min = leb();
      const section = [1, 1, ...encode(min), ...encode(Math.max(min, pages))];
      if (flags & 2) break; // shared memory: leave it
      const out = new Uint8Array(at + 1 + encode(section.length).length + section.length + (wasm.length - body - size));
      out.set(wasm.subarray(0, at));
      out.set([5, ...encode(section.length), ...section], at);
      out.set(wasm.subarray(body + size), at + 1 + encode(section.length).length + section.length);
      return out;
    }
    p = body + size;
  }
  throw new Error('perl: the WebAssembly module has no memory to limit');
}

/** WASI errno numbers by the codes the filesystem throws. */
const WASI_ERRNO: Record<string, number> = {
  E2BIG: 1, EACCES: 2, EBADF: 8, EBUSY: 10, EEXIST: 20, EFBIG: 22, EINVAL: 28, EIO: 29, EISDIR: 31, ELOOP: 32,
  ENAMETOOLONG: 37, ENOENT: 44, ENOSPC: 51, ENOSYS: 52, ENOTDIR: 54, ENOTEMPTY: 55, ENOTSUP: 58, ENXIO: 60,
  EPERM: 63, EROFS: 69, EXDEV: 75, EDQUOT: 19,
};

/** Linux's errno for a WASI errno (perl's exit status after a fatal die is its `$!`). */
const LINUX_ERRNO = [
  0, 7, 13, 98, 99, 97, 11, 114, 9, 74, 16, 125, 10, 103, 111, 104, 35, 89, 33, 122, 17, 14, 27, 113, 43, 84, 115, 4,
  22, 5, 106, 21, 40, 24, 31, 90, 72, 36, 100, 102, 101, 23, 105, 19, 2, 8, 37, 67, 12, 42, 92, 28, 38, 107, 20, 39,
  131, 88, 95, 25, 6, 75, 130, 1, 32, 71, 93, 91, 34, 30, 29, 3, 116, 110, 26, 18, 1,
];

/** The Linux errno for WASI's `errno` (itself when out of the table). */
export function linuxErrno(errno: number): number {
  return LINUX_ERRNO[errno] ?? errno;
}

/** The WASI errno for an error the filesystem threw (EIO when it names none). */
export function wasiErrno(err: unknown): number {
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string' && WASI_ERRNO[code] !== undefined) return WASI_ERRNO[code]!;
  const named = /^(E[A-Z0-9]+)\b/.exec(String((err as Error)?.message ?? ''))?.[1];
  return named && WASI_ERRNO[named] !== undefined ? WASI_ERRNO[named]! : 29;
}

type Request = { op: string; [k: string]: unknown };
type StatReply = { type: string; size: number; mtimeMs: number; ino: number; nlink: number; mode: number; uid: number; gid: number };

/** The filesystem's extras beyond just-bash's interface (bash-fs.ts has them). */
type SpriteFs = IFileSystem & { access?(path: string, want: 4 | 2 | 1): Promise<boolean>; umask?: number };

/** Answers the worker's file requests from `fs`. */
class Host {
  /** perl's file mode creation mask, which `umask` in perl changes (the shell's stays). */
  private umask: number;

  constructor(
    private readonly fs: SpriteFs,
    umask: number,
  ) {
    this.umask = umask;
  }

  async handle(req: Request): Promise<Record<string, unknown>> {
    try {
      return await this.answer(req);
    } catch (err) {
      return { errno: wasiErrno(err) };
    }
  }

  private async statOf(path: string, follow: boolean): Promise<StatReply> {
    const st = (follow ? await this.fs.stat(path) : await this.fs.lstat(path)) as Awaited<ReturnType<IFileSystem['stat']>> & { uid?: number; gid?: number; ino?: number; nlink?: number };
    return {
      type: st.isDirectory ? 'dir' : st.isSymbolicLink ? 'symlink' : st.isFile ? 'file' : 'char',
      size: st.size,
      mtimeMs: st.mtime.getTime(),
      ino: st.ino ?? 0,
      nlink: st.nlink ?? 1,
      mode: st.mode & 0o7777,
      uid: st.uid ?? SPRITE_UID,
      gid: st.gid ?? SPRITE_GID,
    };
  }

  private async exists(path: string): Promise<StatReply | null> {
    try {
      return await this.statOf(path, true);
    } catch (err) {
      if (wasiErrno(err) === WASI_ERRNO.ENOENT) return null;
      throw err;
    }
  }

  /** Makes a fresh file or directory's mode follow perl's umask where it differs from the shell's. */
  private async masked(path: string, base: number): Promise<void> {
    const shell = this.fs.umask ?? 0o022;
    if (shell !== this.umask) await this.fs.chmod(path, base & ~this.umask);
  }

  private async mayWrite(path: string): Promise<void> {
    if (this.fs.access && !(await this.fs.access(path, 2))) throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
  }

  private async answer(req: Request): Promise<Record<string, unknown>> {
    const fs = this.fs;
    const path = req.path as string;
    switch (req.op) {
      case 'stat':
        return { stat: await this.statOf(path, req.follow as boolean) };
      case 'access':
        await this.mayWrite(path);
        return {};
      case 'open': {
        const st = await this.exists(path);
        if (st && req.create && req.excl) return { errno: WASI_ERRNO.EEXIST };
        if (!st && !req.create) return { errno: WASI_ERRNO.ENOENT };
        if (st?.type === 'dir') return req.write ? { errno: WASI_ERRNO.EISDIR } : { dir: true, stat: st };
        if (req.directory) return { errno: WASI_ERRNO.ENOTDIR };
        if (!st) {
          await fs.writeFile(path, new Uint8Array(0));
          await this.masked(path, 0o666);
          return { data: new Uint8Array(0), stat: await this.statOf(path, true), created: true };
        }
        if (req.write) await this.mayWrite(path);
        let data: Uint8Array = new Uint8Array(0);
        if (req.read || !req.trunc) data = await fs.readFileBuffer(path);
        if (req.write && req.trunc) {
          await fs.writeFile(path, new Uint8Array(0));
          data = new Uint8Array(0);
        }
        return { data, stat: st };
      }
      case 'write':
        await fs.writeFile(path, req.data as Uint8Array);
        return {};
      case 'readdir': {
        const entries = await (fs.readdirWithFileTypes ? fs.readdirWithFileTypes(path) : (await fs.readdir(path)).map((name) => ({ name, isFile: true, isDirectory: false, isSymbolicLink: false })));
        return { entries: entries.map((e) => ({ name: e.name, type: e.isDirectory ? 'dir' : e.isSymbolicLink ? 'symlink' : e.isFile ? 'file' : 'char', ino: 0 })) };
      }
      case 'mkdir':
        if (await this.existsNoFollow(path)) return { errno: WASI_ERRNO.EEXIST };
        await fs.mkdir(path);
        await this.masked(path, 0o777);
        return {};
      case 'rmdir': {
        const st = await this.statOf(path, false);
        if (st.type !== 'dir') return { errno: WASI_ERRNO.ENOTDIR };
        if ((await fs.readdir(path)).length > 0) return { errno: WASI_ERRNO.ENOTEMPTY };
        await fs.rm(path);
        return {};
      }
      case 'unlink': {
        const st = await this.statOf(path, false);
        if (st.type === 'dir') return { errno: WASI_ERRNO.EISDIR };
        await fs.rm(path);
        return {};
      }
      case 'rename': {
        const from = req.from as string;
        const to = req.to as string;
        await this.statOf(from, false);
        await fs.mv(from, to);
        if (typeof req.mode === 'number') await fs.chmod(to, req.mode);
        return {};
      }
      case 'link':
        await fs.link(req.from as string, req.to as string);
        return {};
      case 'symlink':
        await fs.symlink(req.target as string, path);
        return {};
      case 'readlink':
        return { target: await fs.readlink(path) };
      case 'utimes': {
        const mtime = new Date(typeof req.mtimeMs === 'number' ? req.mtimeMs : Date.now());
        await fs.utimes(path, mtime, mtime);
        return {};
      }
      case 'chmod':
        await fs.chmod(path, (req.mode as number) & 0o7777);
        return {};
      case 'chown': {
        const own = fs as IFileSystem & { chown?(p: string, u: number, g: number): Promise<void> };
        if (!own.chown) return { errno: WASI_ERRNO.EPERM };
        await own.chown(path, req.uid as number, req.gid as number);
        return {};
      }
      case 'umask':
        this.umask = req.umask as number;
        return {};
      default:
        return { errno: WASI_ERRNO.ENOSYS };
    }
  }

  private async existsNoFollow(path: string): Promise<boolean> {
    try {
      await this.statOf(path, false);
      return true;
    } catch (err) {
      if (wasiErrno(err) === WASI_ERRNO.ENOENT) return false;
      throw err;
    }
  }
}

/** The worker's program: its function's source, run as a script. */
const WORKER_SOURCE = `const __name = (f) => f;\n(${String(perlWorkerMain)})();\n`;

/**
 * Runs perl with `run.args` (perl parses them: every switch of perlrun(1)) on the sprite's files.
 * @returns perl's output and exit status (its `exit`, 255 after a fatal die with no `$!`, `$!` mapped to Linux's
 *   number, 2 for a script it cannot open…); `timedOut`/`aborted` when it was stopped
 */
export async function runPerl(run: PerlRun): Promise<PerlResult> {
  const module = await perlModule();
  const host = new Host(run.fs as SpriteFs, run.umask);
  const { port1, port2 } = new MessageChannel();
  const flag = new SharedArrayBuffer(4);
  const flagView = new Int32Array(flag);
  const account = run.uid === 0 ? ROOT_ACCOUNT : SPRITE_ACCOUNT;
  const input: WorkerInput = {
    module,
    argv: ['perl', `-I${LIB_DIR}`, `-M${PRELUDE_MODULE}`, ...run.args],
    env: Object.entries(run.env).map(([k, v]) => `${k}=${v}`),
    stdin: run.stdin,
    cwd: run.cwd,
    umask: run.umask,
    ctlFd: CTL_FD,
    libPath: LIB_DIR,
    preludeName: `${PRELUDE_MODULE}.pm`,
    prelude: preludeSource(CTL_FD, LIB_DIR, account.uid, account.gid, processGroups(account)),
    flag,
    port: port2,
  };
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: input, transferList: [port2], stdout: true, stderr: true, resourceLimits: { maxOldGenerationSizeMb: 256 } });
  const out: Uint8Array[] = [];
  const err: Uint8Array[] = [];
  const order: number[] = [];
  const errText = new TextDecoder();
  const run_ = (stdout: boolean, n: number) => {
    if (n === 0) return;
    if (order.length === 0 && !stdout) order.push(0);
    if ((order.length - 1) % 2 === (stdout ? 0 : 1)) order[order.length - 1]! += n;
    else order.push(n);
  };
  return new Promise<PerlResult>((resolve) => {
    let settled = false;
    const timer = Number.isFinite(run.timeoutMs) ? setTimeout(() => finish({ exitCode: 124, timedOut: true }), run.timeoutMs) : null;
    const onAbort = () => finish({ exitCode: 137, aborted: true });
    run.signal?.addEventListener('abort', onAbort, { once: true });
    const joined = (parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
    function finish(end: { exitCode: number; timedOut?: boolean; aborted?: boolean; crash?: string }): void {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      port1.close();
      void worker.terminate();
      if (end.crash) err.push(new TextEncoder().encode(`perl: ${end.crash}\n`));
      resolve({ stdout: joined(out), stderr: joined(err), exitCode: end.exitCode, order, ...(end.timedOut ? { timedOut: true } : {}), ...(end.aborted ? { aborted: true } : {}) });
    }
    port1.on('message', (msg: Request) => {
      if (settled) return;
      if (msg.op === 'out') {
        const data = msg.data as Uint8Array;
        (msg.fd === 1 ? out : err).push(data);
        run_(msg.fd === 1, msg.fd === 1 ? data.length : errText.decode(data, { stream: true }).length);
        return;
      }
      const reply = msg.op === 'done' ? Promise.resolve({}) : host.handle(msg);
      if (msg.op === 'done') finish({ exitCode: exitStatus(msg as unknown as Done), ...(typeof msg.crash === 'string' ? { crash: msg.crash } : {}) });
      void reply.then((reply) => {
        if (settled && msg.op !== 'done') return;
        port1.postMessage(reply);
        Atomics.store(flagView, 0, 1);
        Atomics.notify(flagView, 0);
      });
    });
    worker.on('error', (e) => finish({ exitCode: 255, crash: /memory/i.test(String(e)) ? 'Out of memory!' : String(e.message ?? e) }));
    // The worker waits for the answer to its last word, so it cannot end before that word is read.
    worker.on('exit', () => finish({ exitCode: 255, crash: 'the interpreter stopped' }));
  });
}

/** The worker's last word (perl-worker.ts). */
interface Done {
  /** perl_run's status, or -1 when perl stopped before running the program. */
  code: number;
  running: boolean;
  report: { kind: 'exit' | 'die'; values: number[] } | null;
  lastErrno: number;
}

/**
 * perl's exit status as Linux's perl gives it. A run that got to the program ends with perl_run's status, except that
 * a fatal die's `$!` is a WASI number: the prelude told `$!` and `$?` (perl exits with `$!`, else `$? >> 8`, else 255).
 * A run that stopped while compiling ends as the prelude said (`exit` in BEGIN, or the die), else with the errno of
 * the last failed file operation (perl cannot open its script: `$!`), else 255.
 */
export function exitStatus(done: Done): number {
  const r = done.report;
  const dieStatus = (errno: number, child: number, map: (n: number) => number) => (errno & 255 ? map(errno) & 255 : (child >> 8) & 255 || 255);
  if (done.running || done.code >= 0) {
    if (r?.kind === 'die' && done.code === dieStatus(r.values[0] ?? 0, r.values[1] ?? 0, (n) => n)) return dieStatus(r.values[0] ?? 0, r.values[1] ?? 0, linuxErrno);
    return done.code & 255;
  }
  if (r?.kind === 'exit') return (r.values[0] ?? 0) & 255;
  if (r?.kind === 'die') return dieStatus(r.values[0] ?? 0, r.values[1] ?? 0, linuxErrno);
  return done.lastErrno ? linuxErrno(done.lastErrno) & 255 : 255;
}
