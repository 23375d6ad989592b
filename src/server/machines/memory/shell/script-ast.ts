/**
 * A script's syntax tree as the shell engine's rewrites see it: just-bash's parser, with a script that does not
 * parse answered as `undefined` so that the rewrite leaves it as written (just-bash then reports the syntax error
 * itself, as bash would). It owns that one entry to the parser, not what the rewrites do with the tree.
 */
import { parse } from 'just-bash';

/** A node of just-bash's syntax tree, read structurally (`type` names its kind). */
export type ScriptNode = Record<string, unknown> & { type?: string };

/** The statements of `script`, or undefined when it does not parse. */
export function parseScript(script: string): { statements: ScriptNode[] } | undefined {
  try {
    return parse(script) as unknown as { statements: ScriptNode[] };
  } catch {
    return undefined;
  }
}
