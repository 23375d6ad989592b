/**
 * The regular expression after `=~` in `[[ … ]]` as bash reads it: a `(` there opens a group that bash reads,
 * blanks and all, up to its `)` (bash's parse.y, parse_cond_command reading the regex word). A group left open reads
 * to the end of the input, so the whole script fails to parse: bash prints `unexpected EOF while looking for
 * matching )` for the line of the `[[`, then `unexpected argument to conditional binary operator` for the line after
 * the last, and runs nothing from that `[[`'s line on (exit 2). just-bash ends the word at the blank and runs the test.
 */
import type { ScriptNode } from './script-ast.ts';

/** Whether the unquoted text of a regex word opens more groups than it closes. */
function opensGroup(word: unknown): boolean {
  const parts = ((word as { parts?: Array<{ type: string; value?: string }> } | null)?.parts ?? []).filter((p) => p.type === 'Literal');
  let depth = 0;
  for (const part of parts) for (const c of part.value ?? '') depth += c === '(' ? 1 : c === ')' && depth > 0 ? -1 : 0;
  return depth > 0;
}

/** Whether a `[[ ]]` expression holds a `=~` whose regex leaves a group open. */
function hasOpenGroup(expr: unknown): boolean {
  if (expr === null || typeof expr !== 'object') return false;
  const e = expr as ScriptNode;
  if (e.type === 'CondBinary' && e.operator === '=~' && opensGroup(e.right)) return true;
  return Object.values(e).some(hasOpenGroup);
}

/** The line of the first `[[ … =~ … ]]` in `node` whose regex leaves a group open, or null. */
export function openRegexGroupLine(node: unknown): number | null {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = openRegexGroupLine(item);
      if (found !== null) return found;
    }
    return null;
  }
  if (node === null || typeof node !== 'object') return null;
  const n = node as ScriptNode;
  if (n.type === 'ConditionalCommand') return hasOpenGroup(n.expression) && typeof n.line === 'number' ? n.line : null;
  return openRegexGroupLine(Object.values(n));
}
