/**
 * The `interpreter` exec engine: the seed's scripted command table, exactly as the original Go emulator ran it
 * (which mirrors chant's fakeExec). A script is split on `;` and each segment is matched against a fixed list of
 * forms that read and write the sprite's VFS; anything else is echoed back, never executed. It is no shell: no
 * pipes, quoting beyond one pair of quotes, variables or stdin (stdin is ignored and never waited for).
 * It is kept so that tests written against the original emulator's outputs keep passing unchanged.
 * @see docs/architecture.md "Machines and engines"
 */
import { Vfs } from './vfs.ts';
import { VfsError } from '../port.ts';
import { planCommand, ProcessExit, terminalIO } from './argv.ts';
import type { EngineProcess, ExecEngine, SpriteContext } from './engine.ts';
import type { ExecIO, ExecRequest, ExecStartOptions } from '../port.ts';
import { isSpriteEnv, runSpriteEnv } from './sprite-env-command.ts';

/** What one segment produced: raw output bytes and its exit code. */
export interface ScriptedResult {
  stdout: Uint8Array;
  stderr: Uint8Array;
  exit: number;
}

const NOTHING = new Uint8Array(0);
const utf8 = (text: string) => new TextEncoder().encode(text);

/** The file `./risky.sh` corrupts, and what it leaves there. */
export const RISKY_OUTPUT_PATH = '/work/output';
const RISKY_OUTPUT = 'partial-corrupt';

/**
 * The seed's `./risky.sh`: a deploy step that fails half-way. It writes `partial-corrupt` to `/work/output`
 * (creating `/work`), prints `risky.sh: failed` on stderr and exits 1, so that a checkpoint restore has something
 * to undo. Shared by the `shell` engine, which runs it when the sprite has no `risky.sh` of its own.
 * @see docs/fidelity.md "Deliberate differences" (Sandbox: seed demo files)
 */
export function runRiskyScript(vfs: Vfs): ScriptedResult {
  vfs.writeFile(RISKY_OUTPUT_PATH, RISKY_OUTPUT, { mkdirParents: true });
  return { stdout: NOTHING, stderr: utf8('risky.sh: failed\n'), exit: 1 };
}

/** Strips one pair of matching single or double quotes from `text` after trimming it (`'"a b"'` → `a b`). */
export function unquote(text: string): string {
  const t = text.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t.at(-1) === t[0]) return t.slice(1, -1);
  return t;
}

const CAT_INTO = /^cat\s+(\S+)\s*>\s*(\S+)$/;
const ECHO_INTO = /^echo\s+(.+?)\s*>\s*(\S+)$/;
const ECHO = /^echo\s+(.+)$/;
const CAT = /^cat\s+(\S+)$/;
const RM = /^rm\s+(?:-f\s+)?(\S+)$/;

/**
 * Runs one trimmed, non-empty segment against `vfs`, relative paths resolving against `dir`. The forms, first
 * match wins: `cat SRC > DEST` (DEST := SRC's bytes, a missing SRC reads as empty), `echo TEXT > PATH`
 * (PATH := unquote(TEXT), no newline), `echo TEXT` (prints unquote(TEXT) and a newline), `cat PATH` (prints it,
 * missing → nothing), `rm [-f] PATH` (missing is fine), `false` (1), `true` (0), `./risky.sh` (see
 * {@link runRiskyScript}); anything else prints the segment back with exit 0. Writes create parent directories.
 * A write the VFS refuses (e.g. onto a directory) prints the VFS error on stderr and exits 1.
 */
export function runSegment(vfs: Vfs, dir: string, segment: string): ScriptedResult {
  const at = (p: string) => Vfs.normalize(p, dir);
  const ok = (stdout: Uint8Array = NOTHING): ScriptedResult => ({ stdout, stderr: NOTHING, exit: 0 });
  try {
    let m: RegExpMatchArray | null;
    if ((m = segment.match(CAT_INTO))) {
      vfs.writeFile(at(m[2]!), readOrEmpty(vfs, at(m[1]!)), { mkdirParents: true });
      return ok();
    }
    if ((m = segment.match(ECHO_INTO))) {
      vfs.writeFile(at(m[2]!), unquote(m[1]!), { mkdirParents: true });
      return ok();
    }
    if ((m = segment.match(ECHO))) return ok(utf8(`${unquote(m[1]!)}\n`));
    if ((m = segment.match(CAT))) return ok(readOrEmpty(vfs, at(m[1]!)));
    if ((m = segment.match(RM))) {
      vfs.rm(at(m[1]!), { force: true });
      return ok();
    }
    if (segment === 'false') return { stdout: NOTHING, stderr: NOTHING, exit: 1 };
    if (segment === 'true') return ok();
    if (segment === './risky.sh') return runRiskyScript(vfs);
    return ok(utf8(`${segment}\n`));
  } catch (err) {
    if (err instanceof VfsError) return { stdout: NOTHING, stderr: utf8(`${err.message}\n`), exit: 1 };
    throw err;
  }
}

/**
 * Runs a whole script: split on `;`, segments trimmed, empty ones skipped, run in order, each one's output written
 * to `io` as it finishes. Returns the last segment's exit code (0 for an empty script).
 */
export function runScript(vfs: Vfs, dir: string, script: string, io: ExecIO): number {
  let exit = 0;
  for (const segment of script.split(';').map((s) => s.trim())) {
    if (segment === '') continue;
    const r = runSegment(vfs, dir, segment);
    if (r.stdout.length > 0) io.stdout(r.stdout);
    if (r.stderr.length > 0) io.stderr(r.stderr);
    exit = r.exit;
  }
  return exit;
}

/** The bytes of the file at `path`, or none when it cannot be read (missing, a directory, …). */
function readOrEmpty(vfs: Vfs, path: string): Uint8Array {
  try {
    return vfs.readFile(path);
  } catch (err) {
    if (err instanceof VfsError) return NOTHING;
    throw err;
  }
}

/**
 * The script an exec request means to the interpreter: the `-c` script of `sh`/`bash`, or argv joined with single
 * spaces (as the JS SDK's `exec('echo hello world')` sends `cmd=echo&cmd=hello&cmd=world`).
 * @see argv.ts `planCommand`
 */
export function interpreterScript(req: Pick<ExecRequest, 'argv' | 'path'>): string {
  const plan = planCommand(req);
  return plan.form === 'shell' ? plan.script : plan.argv.join(' ');
}

/**
 * The arguments of a `sprite-env` command line, or null when `req` is something else: argv whose program is
 * `sprite-env` (or its `/.sprite/bin`, `/usr/local/bin` path), or a one-segment script starting with it (words split
 * on spaces, each with one pair of quotes stripped; no `;`, `|` or `&`).
 */
export function spriteEnvArgsOf(req: Pick<ExecRequest, 'argv' | 'path'>): string[] | null {
  const plan = planCommand(req);
  if (plan.form === 'argv') return plan.argv[0] !== undefined && isSpriteEnv(plan.argv[0]) ? plan.argv.slice(1) : null;
  if (/[;|&\n]/.test(plan.script)) return null;
  const words = plan.script.trim().split(/\s+/).map(unquote);
  return words[0] !== undefined && isSpriteEnv(words[0]) ? words.slice(1) : null;
}

/**
 * Creates the `interpreter` engine. `sprite-env …` (alone on its line) runs the in-sprite API's command
 * (sprite-env-command.ts) and ends when its answer has. A command runs on the microtask after `start` returns (never synchronously),
 * writes its output, then settles `exit`. It reads no stdin (it never waits for EOF); `resize` does nothing; a
 * fatal signal delivered before it ran ends it with `128 + signum` and it never runs.
 * @deviation Output in TTY mode is the same text with stderr merged and `\n` → `\r\n`; nothing is interactive.
 */
export function createInterpreterEngine(): ExecEngine {
  return {
    name: 'interpreter',
    start(sprite: SpriteContext, req: ExecRequest, io: ExecIO, _opts: ExecStartOptions): EngineProcess {
      const pid = sprite.allocatePid();
      const proc = new ProcessExit();
      const out = terminalIO(io, req.tty);
      const handle: EngineProcess = {
        pid,
        exit: proc.exit,
        writeStdin: () => {},
        endStdin: () => {},
        resize: () => {},
        signal: (name: string) => void proc.signal(name),
      };
      const spriteEnvArgs = spriteEnvArgsOf(req);
      if (spriteEnvArgs) {
        queueMicrotask(() => {
          if (proc.finished) return;
          void runSpriteEnv(sprite, spriteEnvArgs).then((r) => {
            if (proc.finished) return;
            if (r.stdout) out.stdout(utf8(r.stdout));
            if (r.stderr) out.stderr(utf8(r.stderr));
            proc.finish(r.exitCode);
          });
        });
        return handle;
      }
      queueMicrotask(() => {
        if (proc.finished) return;
        let code = 1;
        try {
          code = runScript(sprite.vfs, req.dir, interpreterScript(req), out);
        } catch {
          // Only a throwing sink gets here (VFS errors are answered per segment); `exit` still settles.
        }
        proc.finish(code);
      });
      return handle;
    },
  };
}
