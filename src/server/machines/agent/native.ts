/**
 * The small native helpers of the engines that run the in-sprite agent, compiled once with the host's C compiler
 * into a root-only cache: `spritzer-runas` (native/runas.c), through which the agent starts every process as the
 * sprite user with the file capabilities an exec session holds, shared by the sandbox and container engines; and
 * the sandbox's own `spritzer-userns` (sandbox/native.ts), which uses `compileNative` too. It compiles and answers
 * paths; it runs nothing else.
 * @see docs/sandbox.md "User namespaces", docs/security.md "Exec sessions hold file capabilities"
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, copyFile, mkdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../runtime/project-root.ts';

/** Where compiled helpers are kept, one file per source hash (and link mode). */
export const NATIVE_CACHE = join(PROJECT_ROOT, '.cache/native');
/** The run-as helper's C source (shipped with the package). */
export const RUNAS_SOURCE = join(PROJECT_ROOT, 'src/server/machines/agent/native/runas.c');
/** Where the run-as helper is inside a sprite: beside the agent's bundle (bound or copied read-only with it). */
export const RUNAS_IN_SPRITE = '/.sprite/agent/spritzer-runas';

/**
 * The capabilities of an exec session's processes (exec, TTY sessions and everything they start): what lets the
 * sprite user write outside its home without sudo, as integrations written against Sprites do (`mkdir -p
 * /workspace`, `/srv`, `/opt`, `/run/*.lock`, `/var/log/*.log`), over the sprite's own user namespace only.
 * Services get none. runas.c accepts exactly these names.
 * @deviation production's exec shell holds more (KILL, SETUID, SETGID, SETPCAP, NET_*, SYS_CHROOT, SYS_ADMIN, MKNOD,
 * AUDIT_WRITE, SETFCAP: a third-party probe's CapEff 0xa82435fb); without KILL the sprite user cannot signal the
 * agent, and nothing here needs the rest (docs/fidelity.md "Root-level writes").
 */
export const EXEC_CAPS: readonly string[] = ['CAP_CHOWN', 'CAP_DAC_OVERRIDE', 'CAP_FOWNER', 'CAP_FSETID'];

function compile(cc: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(cc, args, { timeout: 120_000, encoding: 'utf8' }, (err, _stdout, stderr) => {
      if (err) reject(new Error(`${cc} ${args.join(' ')}: ${String(stderr).trim() || err.message}`));
      else resolve();
    });
  });
}

/**
 * Resolves with the path of `source` compiled as `name` into `cacheDir`, compiling with `cc` (then `gcc`) when no
 * binary of its content hash is there yet (a temp file renamed into place, so concurrent servers never run a
 * half-written one). With `preferStatic`, a static binary first (`-static`, when the host has libc.a), so it runs in
 * any Linux userland of the host's architecture (a container's image), a dynamic one when linking statically fails.
 * The cache directory is made root-only (0700). Rejects, naming the package to install, when no C compiler works.
 */
export async function compileNative(source: string, name: string, opts: { preferStatic?: boolean; cacheDir?: string } = {}): Promise<string> {
  const cacheDir = opts.cacheDir ?? NATIVE_CACHE;
  const text = await readFile(source);
  const hash = createHash('sha256').update(text).update(opts.preferStatic ? 'static' : '').digest('hex').slice(0, 16);
  const out = join(cacheDir, `${name}-${hash}`);
  if (await stat(out).then((s) => s.isFile() && s.uid === 0 && (s.mode & 0o022) === 0, () => false)) return out;
  await mkdir(cacheDir, { recursive: true, mode: 0o700 });
  await chmod(cacheDir, 0o700);
  const tmp = `${out}.${process.pid}.${Date.now()}.tmp`;
  const attempts = (opts.preferStatic ? [['-static'], []] : [[]]).flatMap((link) => ['cc', 'gcc'].map((cc) => ({ cc, link })));
  let lastError = '';
  for (const { cc, link } of attempts) {
    try {
      await compile(cc, ['-O2', '-Wall', ...link, '-o', tmp, source]);
      await chmod(tmp, 0o755);
      await rename(tmp, out);
      return out;
    } catch (err) {
      lastError = (err as Error).message;
    }
  }
  throw new Error(`spritzer compiles a small helper (${source}) and needs a C compiler: apt-get install -y gcc libc6-dev (${lastError})`);
}

/** Resolves with the host path of the compiled run-as helper (static when the host can link it so). */
export function runAsHelper(cacheDir?: string): Promise<string> {
  return compileNative(RUNAS_SOURCE, 'spritzer-runas', { preferStatic: true, cacheDir });
}

/**
 * Whether the ELF file at `path` is statically linked: a 64-bit little-endian ELF whose program headers hold no
 * PT_INTERP (the dynamic loader's path). False for anything else, so a binary that needs the host's libc is never
 * copied where another libc may be (a container's image).
 */
export async function isStaticElf(path: string): Promise<boolean> {
  const b = await readFile(path);
  if (b.length < 64 || b.readUInt32BE(0) !== 0x7f454c46 || b[4] !== 2 || b[5] !== 1) return false;
  const phoff = Number(b.readBigUInt64LE(32));
  const phentsize = b.readUInt16LE(54);
  const phnum = b.readUInt16LE(56);
  if (phentsize < 4 || phoff + phentsize * phnum > b.length) return false;
  for (let i = 0; i < phnum; i++) if (b.readUInt32LE(phoff + i * phentsize) === 3) return false;
  return true;
}

/**
 * Copies the helper at `src` to `dest` (mode 0711, replaced atomically: a running sprite never sees half a file) and
 * resolves with `dest`: where an unprivileged uid (bubblewrap as a sprite's root) may bind and run it. Execute
 * only: another host user finds nothing to read in a data dir (execve needs no read permission).
 */
export async function publishHelper(src: string, dest: string): Promise<string> {
  const tmp = `${dest}.${process.pid}.${Date.now()}.tmp`;
  await copyFile(src, tmp);
  await chmod(tmp, 0o711);
  await rename(tmp, dest);
  return dest;
}
