/**
 * The `--sprite-ports` setting: where the ports of sprite URLs come from. A value with no dependencies, so the
 * server's context and its flags can name it without reaching the listeners (url/sprite-origins.ts).
 */

/** Where sprite ports come from: `auto` (a free port the kernel picks), or the first free one of `from..to`. */
export type SpritePortRange = 'auto' | { from: number; to: number };

/**
 * Parses `--sprite-ports`: `auto`, or `<from>-<to>` (1..65535, from ≤ to). Throws an Error naming the problem.
 */
export function parseSpritePortRange(text: string): SpritePortRange {
  if (text.trim() === 'auto') return 'auto';
  const m = /^\s*(\d{1,5})\s*-\s*(\d{1,5})\s*$/.exec(text);
  const from = Number(m?.[1]);
  const to = Number(m?.[2]);
  if (!m || from < 1 || to > 65535 || from > to) throw new Error(`expected auto or <from>-<to> within 1-65535, got ${JSON.stringify(text)}`);
  return { from, to };
}
