/**
 * `tsort` as GNU coreutils orders: pairs of words read as edges, items kept in name order and output as GNU's
 * algorithm takes them (a queue seeded with the items nothing precedes, in name order; an item's successors
 * released latest-first), an odd number of words an error, and a loop reported on stderr (`input contains a
 * loop:`), broken, and exit 1.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/tsort-invocation.html
 */
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { readOperand, type InputCtx } from './text-input.ts';

async function tsort(args: string[], ctx: InputCtx): Promise<ExecResult> {
  const operands = args.filter((a) => a !== '--');
  const name = operands[0] ?? '-';
  if (operands.length > 1) return { stdout: '', stderr: `tsort: extra operand ‘${operands[1]}’\nTry 'tsort --help' for more information.\n`, exitCode: 1 };
  const input = await readOperand(ctx, name);
  if ('error' in input) return { stdout: '', stderr: `tsort: ${name}: ${input.error}\n`, exitCode: 1 };
  const words = input.bytes.split(/[ \t\n]+/).filter((w) => w !== '');
  if (words.length % 2 === 1) return { stdout: '', stderr: `tsort: ${name}: input contains an odd number of tokens\n`, exitCode: 1 };
  const indegree = new Map<string, number>();
  const successors = new Map<string, string[]>();
  for (let i = 0; i < words.length; i += 2) {
    const [a, b] = [words[i]!, words[i + 1]!];
    for (const w of [a, b]) if (!indegree.has(w)) (indegree.set(w, 0), successors.set(w, []));
    if (a !== b) {
      successors.get(a)!.unshift(b);
      indegree.set(b, indegree.get(b)! + 1);
    }
  }
  const sorted = [...indegree.keys()].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const done = new Set<string>();
  let out = '';
  let err = '';
  while (done.size < sorted.length) {
    const queue = sorted.filter((w) => !done.has(w) && indegree.get(w) === 0);
    if (queue.length === 0) {
      // A loop: name it from the first item left, then release that item.
      const start = sorted.find((w) => !done.has(w))!;
      const loop: string[] = [];
      for (let w = start; !loop.includes(w); w = successors.get(w)!.find((s) => !done.has(s)) ?? start) loop.push(w);
      err += `tsort: ${name}: input contains a loop:\n${loop.map((w) => `tsort: ${w}\n`).join('')}`;
      indegree.set(start, 0);
      continue;
    }
    while (queue.length > 0) {
      const w = queue.shift()!;
      if (done.has(w)) continue;
      done.add(w);
      out += `${w}\n`;
      for (const s of successors.get(w)!) {
        if (done.has(s)) continue;
        indegree.set(s, indegree.get(s)! - 1);
        if (indegree.get(s) === 0) queue.push(s);
      }
    }
  }
  return { stdout: out, stderr: err, exitCode: err ? 1 : 0 };
}

/** `tsort` for just-bash's `customCommands`. */
export function tsortCommands(): CustomCommand[] {
  return [defineCommand('tsort', (args, ctx) => tsort(args, ctx))];
}
