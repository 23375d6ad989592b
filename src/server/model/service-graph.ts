/**
 * The `needs` graph of a sprite's services (docs/wire-reference.md §9.1: "dependencies started first"): cycle detection
 * and start order. Both are iterative depth-first searches that visit each service and each `needs` edge once,
 * so a chain of any length costs time linear in its size and never overflows the stack. It knows services only by
 * name, through `needsOf`; it owns no state and starts nothing.
 */

/** The `needs` of a service by name, or undefined for a service that does not exist. */
export type NeedsOf = (name: string) => readonly string[] | undefined;

/**
 * A dependency path `name -> … -> name` that giving `name` these `needs` would close through the existing
 * definitions (`needsOf`), or null when there is none. The first cycle in depth-first order (needs in order) is
 * reported. O(services + needs edges).
 * @see docs/wire-reference.md §9.2 (400 on a dependency cycle)
 */
export function findNeedsCycle(name: string, needs: readonly string[], needsOf: NeedsOf): string[] | null {
  const cameFrom = new Map<string, string>();
  const stack: Array<{ node: string; from: string }> = [];
  for (let i = needs.length - 1; i >= 0; i--) stack.push({ node: needs[i]!, from: name });
  while (stack.length > 0) {
    const { node, from } = stack.pop()!;
    if (node === name) {
      const path: string[] = [];
      for (let at = from; at !== name; at = cameFrom.get(at)!) path.push(at);
      return [name, ...path.reverse(), name];
    }
    if (cameFrom.has(node)) continue;
    cameFrom.set(node, from);
    const next = needsOf(node) ?? [];
    for (let i = next.length - 1; i >= 0; i--) stack.push({ node: next[i]!, from: node });
  }
  return null;
}

/**
 * `roots` and every existing service they need, transitively, each once, in start order: a service after all it
 * needs (depth first, `needs` in order), unknown names skipped. O(services + needs edges).
 * @see docs/wire-reference.md §9.1 (`needs`: dependencies started first)
 */
export function startOrder(roots: readonly string[], needsOf: NeedsOf): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const root of roots) {
    const rootNeeds = needsOf(root);
    if (seen.has(root) || rootNeeds === undefined) continue;
    seen.add(root);
    const stack: Array<{ node: string; needs: readonly string[]; next: number }> = [{ node: root, needs: rootNeeds, next: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.next === top.needs.length) {
        stack.pop();
        out.push(top.node);
        continue;
      }
      const dep = top.needs[top.next++]!;
      const depNeeds = needsOf(dep);
      if (seen.has(dep) || depNeeds === undefined) continue;
      seen.add(dep);
      stack.push({ node: dep, needs: depNeeds, next: 0 });
    }
  }
  return out;
}
