/**
 * Runs one host command (`mount`, `btrfs`, `cp`, …) for the sandbox engine and turns a failure into an Error
 * that names the command and carries its stderr. It owns nothing else: no retries, no shell, no sandboxing.
 */
import { execFile } from 'node:child_process';

/** A host command that failed: `command` is the argv joined by spaces, `stderr` its trimmed error output. */
export class HostCommandError extends Error {
  constructor(
    readonly command: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`${command} failed (exit ${exitCode ?? 'signal'}): ${stderr || 'no output'}`);
    this.name = 'HostCommandError';
  }
}

/**
 * Runs `file` with `args` (no shell) and resolves with its stdout as UTF-8. Rejects with a `HostCommandError`
 * when it exits non-zero or cannot start (ENOENT becomes exit `null`, stderr `not found`).
 * `timeoutMs` (default 60 s) kills a hung command.
 */
export function run(file: string, args: string[], opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { encoding: 'utf8', timeout: opts.timeoutMs ?? 60_000, maxBuffer: 16 * 1024 * 1024, env: opts.env },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const command = [file, ...args].join(' ');
        const code = typeof err.code === 'number' ? err.code : null;
        const message = err.code === 'ENOENT' ? 'not found' : String(stderr).trim();
        reject(new HostCommandError(command, code, message));
      },
    );
  });
}

/** Whether `file` can be run (found on PATH and executable); runs `file --version`, output ignored. */
export async function hasCommand(file: string): Promise<boolean> {
  try {
    await run(file, ['--version'], { timeoutMs: 10_000 });
    return true;
  } catch (err) {
    return err instanceof HostCommandError && err.exitCode !== null;
  }
}
