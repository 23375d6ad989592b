/**
 * Extended patterns (`@(…)`, `!(…)`, `*(…)`, `+(…)`, `?(…)`) as bash reads them: only while `shopt -s extglob` is on
 * when bash reads the command. bash reads and parses one complete command (a line, with the lines a compound
 * command spans) before it runs it, so `shopt -s extglob` enables them from the next line on, and on its own line
 * the `(` is a syntax error. just-bash parses the whole script at once and always reads them; this module finds the
 * line where bash would stop. `[[ … ]]` always reads them (bash's manual, "Pattern Matching", "Conditional Constructs"), and
 * a pattern inside `${…}` (`${f//+([0-9])/#}`) is only read when the expansion runs, so it is never a syntax error.
 */
import type { ScriptNode } from './script-ast.ts';

const EXTENDED = /[?*+@!]\(/;

/** The first extended pattern written in `node` (outside `[[ ]]`, here-documents and `${…}`), or null. */
function extendedPattern(node: unknown): string | null {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = extendedPattern(item);
      if (found !== null) return found;
    }
    return null;
  }
  if (node === null || typeof node !== 'object') return null;
  const n = node as ScriptNode;
  if (n.type === 'ConditionalCommand' || n.type === 'HereDoc' || n.type === 'ParameterExpansion') return null;
  if (n.type === 'Glob' && EXTENDED.test(String(n.pattern))) return String(n.pattern);
  return extendedPattern(Object.values(n));
}

/** What `node` leaves extglob as when it runs: true after `shopt -s … extglob`, false after `-u`, null if untouched. */
function extglobAfter(node: unknown): boolean | null {
  if (Array.isArray(node)) {
    let last: boolean | null = null;
    for (const item of node) last = extglobAfter(item) ?? last;
    return last;
  }
  if (node === null || typeof node !== 'object') return null;
  const n = node as ScriptNode;
  if (n.type === 'FunctionDef') return null;
  if (n.type === 'SimpleCommand') {
    const words = [n.name, ...((n.args as unknown[] | undefined) ?? [])].map(literalOf);
    if (words[0] !== 'shopt' || !words.includes('extglob')) return null;
    const flags = words.slice(1).filter((w) => w?.startsWith('-')).join('');
    return flags.includes('s') ? true : flags.includes('u') ? false : null;
  }
  return extglobAfter(Object.values(n));
}

/** The text of a word made of literal parts only, or null. */
function literalOf(word: unknown): string | null {
  const parts = (word as { parts?: ScriptNode[] } | null)?.parts;
  if (!parts?.length || parts.some((p) => p.type !== 'Literal')) return null;
  return parts.map((p) => String(p.value)).join('');
}

/**
 * The 1-based line of `script` where bash meets an extended pattern with extglob off, or null when it never does.
 * `statements` are just-bash's top-level statements of `script` (each carries its `sourceText`); `on` is extglob's
 * state when the script starts (`bash -O extglob`).
 */
export function extglobErrorLine(script: string, statements: ScriptNode[], on = false): number | null {
  const lineAt = (offset: number) => script.slice(0, offset).split('\n').length;
  const pending: Array<{ after: number; on: boolean }> = [];
  let cursor = 0;
  for (const statement of statements) {
    const text = String(statement.sourceText ?? '');
    const at = text ? script.indexOf(text, cursor) : -1;
    if (at < 0) continue;
    cursor = at + text.length;
    const start = lineAt(at);
    const end = start + (text.match(/\n/g)?.length ?? 0);
    while (pending.length > 0 && pending[0]!.after < start) on = pending.shift()!.on;
    const pattern = on ? null : extendedPattern(statement);
    if (pattern !== null) {
      const lines = script.split('\n');
      for (let line = start; line <= end; line++) if (lines[line - 1]?.includes(pattern)) return line;
      return start;
    }
    const after = extglobAfter(statement);
    if (after !== null) pending.push({ after: end, on: after });
  }
  return null;
}
