/**
 * `SHLVL` as bash keeps it (bash(1) "Shell Variables": incremented by one each time an instance of bash is started):
 * the level of the shell an exec starts, and the one lower level bash gives the last command of a `-c` script, which
 * it runs in its own process instead of a child (a `bash -c` there sees the parent's level, a bare `env` prints
 * `SHLVL=0`). It owns that number,
 * not the running of shells (shell-command.ts, engine.ts).
 */
import { parseScript, serializeScript, type ScriptNode } from './script-ast.ts';
import { SINK_DIR } from './sink-dir.ts';

/** `SHLVL` of a bash started with `env`: one more than `env` has (1 when it has none or no number). */
export function nextShellLevel(env: Record<string, string>): { SHLVL: string } {
  return { SHLVL: String((Number(env.SHLVL) || 0) + 1) };
}

/** Whether `program` (argv[0] or a path) names bash: a sprite's `sh` is dash, which leaves SHLVL as it found it. */
export function isBash(program: string | undefined): boolean {
  return (program ?? '').split('/').pop() === 'bash';
}

/**
 * The prefix assignment that gives the last command its level: the interpreter hands it on as SHLVL's value, in
 * SHLVL's place in the environment (patches/just-bash/variables-export-order.mjs), so no variable of its own shows.
 */
export const LAST_LEVEL_VARIABLE = '__spritzer_shlvl';

/** bash 5.2's builtins (`enable -a`): they run in the shell itself, so bash never replaces itself with one. */
export const BUILTINS: ReadonlySet<string> = new Set(
  `. : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown echo enable
  eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd printf pushd pwd
  read readarray readonly return set shift shopt source suspend test times trap true type typeset ulimit umask unalias
  unset wait`.split(/\s+/),
);

/**
 * `script` of a `bash -c` shell at `level`, with its last command, when bash runs it in its own process (a program,
 * not a builtin or a function of the script, run alone or last of an `&&`/`||` list, without redirections and not in
 * the background: `…; env`, `… && bash -c '…'`), given `SHLVL=level-1` as bash does before it replaces itself with
 * that command ({@link LAST_LEVEL_VARIABLE}); any other script unchanged, as is one with `<<` anywhere, a trap (which bash must still run) or
 * tracing (`set -x`, whose trace the assignment would show).
 */
export function withLastCommandLevel(script: string, level: number): string {
  // The serializer moves the text after a here-doc operator behind its body (output-sink.ts): such a script, or
  // one that may hold one, stays as written.
  if (script.includes('<<') || /\btrap\b|xtrace|(^|[\s;])set\s+-\w*x/.test(script)) return script;
  const ast = parseScript(script);
  const last = ast?.statements.at(-1);
  const pipelines = last?.pipelines as ScriptNode[] | undefined;
  if (!ast || !last || last.background || !pipelines?.length) return script;
  const commands = pipelines.at(-1)!.commands as ScriptNode[] | undefined;
  const command = commands?.length === 1 ? commands[0]! : undefined;
  const parts = (command?.name as { parts?: Array<{ type: string; value?: string }> } | null | undefined)?.parts;
  if (command?.type !== 'SimpleCommand' || parts?.length !== 1 || parts[0]!.type !== 'Literal') return script;
  const name = parts[0]!.value ?? '';
  // The engine's own redirections of a nested script's output (to its sinks) are not the script's.
  const target = (r: ScriptNode) => ((r.target as { parts?: Array<{ value?: string }> } | undefined)?.parts ?? []).map((p) => p.value ?? '').join('');
  const redirected = ((command.redirections as ScriptNode[] | undefined) ?? []).some((r) => !target(r).startsWith(SINK_DIR));
  const ownFunction = new RegExp(`(^|[\\s;{(])(function\\s+)?${name.replace(/[^\w]/g, '\\$&')}\\s*\\(\\s*\\)|function\\s+${name.replace(/[^\w]/g, '\\$&')}\\b`).test(script);
  const assignments = (command.assignments as Array<{ name?: string }> | undefined) ?? [];
  if (!name || BUILTINS.has(name) || redirected || ownFunction || (pipelines.at(-1) as { negated?: boolean }).negated || assignments.some((a) => a.name === 'SHLVL')) return script;
  const value = { type: 'Word', parts: [{ type: 'Literal', value: String(level - 1) }] };
  command.assignments = [...assignments, { type: 'Assignment', name: LAST_LEVEL_VARIABLE, value, append: false, array: null }];
  return serializeScript(ast);
}
