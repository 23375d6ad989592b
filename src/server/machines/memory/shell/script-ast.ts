/**
 * A script's syntax tree as the shell engine's rewrites see it: just-bash's parser, with a script that does not
 * parse answered as `undefined` so that the rewrite leaves it as written (just-bash then reports the syntax error
 * itself, as bash would). It owns that one entry to the parser, and keeps the tree one that just-bash's serializer
 * writes back faithfully; not what the rewrites do with the tree.
 */
import { parse } from 'just-bash';

/** A node of just-bash's syntax tree, read structurally (`type` names its kind). */
export type ScriptNode = Record<string, unknown> & { type?: string };

/** The statements of `script`, or undefined when it does not parse. */
export function parseScript(script: string): { statements: ScriptNode[] } | undefined {
  let ast: { statements: ScriptNode[] };
  try {
    ast = parse(script) as unknown as { statements: ScriptNode[] };
  } catch {
    return undefined;
  }
  quoteNewlines(ast);
  return ast;
}

/**
 * An ANSI-C word (`$'a\nb'`) parses into an unquoted literal holding a real newline, which just-bash's serializer
 * writes as `a\<newline>b`: a line continuation, so the newline would vanish when the rewritten script runs. Each
 * newline of an unquoted literal is made a single-quoted part of its own, which serializes as `'<newline>'`.
 */
function quoteNewlines(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) quoteNewlines(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const n = node as ScriptNode;
  if (n.type === 'Word' && Array.isArray(n.parts)) {
    n.parts = (n.parts as ScriptNode[]).flatMap((part) => {
      if (part.type !== 'Literal' || typeof part.value !== 'string' || !part.value.includes('\n')) return [part];
      return part.value
        .split(/(\n+)/)
        .filter((run) => run !== '')
        .map((run) => (run.startsWith('\n') ? { type: 'SingleQuoted', value: run } : { type: 'Literal', value: run }));
    });
  }
  for (const value of Object.values(n)) quoteNewlines(value);
}
