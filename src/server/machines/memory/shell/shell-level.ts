/**
 * `SHLVL` as bash keeps it (bash(1) "Shell Variables": incremented by one each time an instance of bash is started):
 * the level of the shell an exec starts, and the one lower level bash gives the last command of a `-c` script, which
 * it runs in its own process instead of a child (a `bash -c` there sees the parent's level). It owns that number,
 * not the running of shells (shell-command.ts, engine.ts).
 */
import { parseScript, serializeScript, type ScriptNode } from './script-ast.ts';

/** `SHLVL` of a bash started with `env`: one more than `env` has (1 when it has none or no number). */
export function nextShellLevel(env: Record<string, string>): { SHLVL: string } {
  return { SHLVL: String((Number(env.SHLVL) || 0) + 1) };
}

/** Whether `program` (argv[0] or a path) names bash: a sprite's `sh` is dash, which leaves SHLVL as it found it. */
export function isBash(program: string | undefined): boolean {
  return (program ?? '').split('/').pop() === 'bash';
}

const SHELLS = new Set(['sh', 'bash', '/bin/sh', '/bin/bash', '/usr/bin/sh', '/usr/bin/bash']);

/**
 * `script` of a `bash -c` shell at `level`, with its last statement, when that is a shell run alone (`… ; bash -c
 * '…'`, not in a pipeline, a list or the background), given `SHLVL=level-1` as bash does before it replaces itself
 * with that command; any other script (or one with `<<` anywhere) unchanged.
 */
export function withLastCommandLevel(script: string, level: number): string {
  // The serializer moves the text after a here-doc operator behind its body (output-sink.ts): such a script, or
  // one that may hold one, stays as written.
  if (script.includes('<<')) return script;
  const ast = parseScript(script);
  const last = ast?.statements.at(-1);
  const pipelines = last?.pipelines as ScriptNode[] | undefined;
  if (!ast || !last || last.background || pipelines?.length !== 1) return script;
  const commands = pipelines[0]!.commands as ScriptNode[] | undefined;
  const command = commands?.length === 1 ? commands[0]! : undefined;
  const parts = (command?.name as { parts?: Array<{ type: string; value?: string }> } | null | undefined)?.parts;
  if (command?.type !== 'SimpleCommand' || parts?.length !== 1 || parts[0]!.type !== 'Literal' || !SHELLS.has(parts[0]!.value ?? '')) return script;
  const value = { type: 'Word', parts: [{ type: 'Literal', value: String(level - 1) }] };
  command.assignments = [{ type: 'Assignment', name: 'SHLVL', value, append: false, array: null }, ...((command.assignments as ScriptNode[] | undefined) ?? [])];
  return serializeScript(ast);
}
