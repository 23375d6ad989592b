/**
 * Test support: what a fresh Sprite's exec environment is (docs/fidelity.md "Exec environment"), and a probe that
 * reads it from inside a sprite on any engine with a shell. The values are those of the real service's defaults
 * (docs/wire-reference.md §4.2 `env`, `dir`; §13 user `sprite`, home `/home/sprite`).
 */
import { execQuery, wsExec } from './server.ts';

/** The variables a command gets when the request sends no `env` (without a TTY). */
export const FRESH_ENV: Readonly<Record<string, string>> = {
  HOME: '/home/sprite',
  LANG: 'C.UTF-8',
  LOGNAME: 'sprite',
  PATH: '/home/sprite/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/.sprite/bin',
  PWD: '/home/sprite',
  SHELL: '/bin/bash',
  USER: 'sprite',
};

/** Variables bash itself exports to the programs it runs (not part of the exec's environment). */
const BASH_OWN = new Set(['SHLVL', '_', 'OLDPWD']);

/** `env` inside `sprite` as a record (bash's own variables left out), with `opts` as the exec's query. */
export async function envInside(base: string, sprite: string, opts: { tty?: boolean; env?: string[] } = {}): Promise<Record<string, string>> {
  const r = await wsExec(base, `/v1/sprites/${sprite}/exec?${execQuery(['bash', '-c', 'env'], opts)}`);
  const out: Record<string, string> = {};
  for (const line of r.stdout.replaceAll('\r\n', '\n').split('\n')) {
    const at = line.indexOf('=');
    if (at > 0 && !BASH_OWN.has(line.slice(0, at))) out[line.slice(0, at)] = line.slice(at + 1);
  }
  return out;
}

/** Runs `script` under bash in `sprite` and returns stdout's lines (TTY line ends folded). */
export async function linesInside(base: string, sprite: string, script: string, opts: { tty?: boolean; env?: string[] } = {}): Promise<string[]> {
  const r = await wsExec(base, `/v1/sprites/${sprite}/exec?${execQuery(['bash', '-c', script], opts)}`);
  return r.stdout.replaceAll('\r\n', '\n').trimEnd().split('\n');
}
