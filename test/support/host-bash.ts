/**
 * Test support: the host's real bash and GNU tools as a reference for the shell engine. `hostBash` runs a script
 * with `bash --norc -c` in a fresh temp dir (removed after) under `TZ` and `LANG=C.UTF-8`; `engineBash` runs the same
 * script on the shell engine with the same variables, in a fresh `/tmp/case` directory of a fresh sprite.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runShell } from './shell-run.ts';

/** What a script printed and its status. */
export interface Outcome { stdout: string; stderr: string; exit: number | null }

/** Whether the host has `cmd` on its PATH. */
export function hostHas(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
}

/** `script` run by the host's bash in an empty temp dir. */
export function hostBash(script: string, tz = 'UTC'): Outcome {
  const dir = mkdtempSync(join(tmpdir(), 'spritzer-host-'));
  try {
    const r = spawnSync('bash', ['--norc', '--noprofile', '-c', script], { cwd: dir, encoding: 'utf8', env: { TZ: tz, LANG: 'C.UTF-8', PATH: process.env.PATH } });
    return { stdout: r.stdout, stderr: r.stderr, exit: r.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `script` run by the host's bash as an unprivileged user (nobody, no groups, through `setpriv`) in an empty temp
 * dir it owns: the reference for what a sprite's non-root user may do with root's files. The host must be run as
 * root with `setpriv` (`hostHas('setpriv')`).
 */
export function hostBashUnprivileged(script: string, tz = 'UTC'): Outcome {
  const dir = mkdtempSync(join(tmpdir(), 'spritzer-host-'));
  try {
    chownSync(dir, 65534, 65534);
    const argv = ['--reuid=65534', '--regid=65534', '--clear-groups', 'bash', '--norc', '--noprofile', '-c', script];
    const r = spawnSync('setpriv', argv, { cwd: dir, encoding: 'utf8', env: { TZ: tz, LANG: 'C.UTF-8', PATH: process.env.PATH } });
    return { stdout: r.stdout, stderr: r.stderr, exit: r.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The file capabilities an exec session's sprite user holds (docs/fidelity.md "Root-level writes"), as setpriv names them. */
const EXEC_SESSION_CAPS = '+chown,+dac_override,+fowner,+fsetid';

/**
 * `script` run by the host's bash as an unprivileged user holding an exec session's file capabilities (CAP_CHOWN,
 * CAP_DAC_OVERRIDE, CAP_FOWNER, CAP_FSETID, ambient: nobody through `setpriv`) in an empty temp dir it owns: the
 * reference for what a sprite's exec session may do with files whose modes would stop a plain user. That user may
 * write any file of the host: give it only scripts that stay in their directory. Needs root and `setpriv`.
 */
export function hostBashCapable(script: string, tz = 'UTC'): Outcome {
  const dir = mkdtempSync(join(tmpdir(), 'spritzer-host-'));
  try {
    chownSync(dir, 65534, 65534);
    const argv = ['--reuid=65534', '--regid=65534', '--clear-groups', `--inh-caps=${EXEC_SESSION_CAPS}`, `--ambient-caps=${EXEC_SESSION_CAPS}`, 'bash', '--norc', '--noprofile', '-c', script];
    const r = spawnSync('setpriv', argv, { cwd: dir, encoding: 'utf8', env: { TZ: tz, LANG: 'C.UTF-8', PATH: process.env.PATH } });
    return { stdout: r.stdout, stderr: r.stderr, exit: r.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `script` run by the shell engine in an empty directory with the variables {@link hostBash} sets: as an exec
 * session's command, or with `service` as a service's (the plain sprite user, without an exec session's
 * capabilities: what {@link hostBashUnprivileged} is the reference for).
 */
export function engineBash(script: string, tz = 'UTC', opts: { service?: boolean } = {}): Promise<Outcome> {
  return runShell(`export TZ=${tz} LANG=C.UTF-8; mkdir -p /tmp/case && cd /tmp/case && ${script}`, undefined, opts);
}
