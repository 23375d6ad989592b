/**
 * The order in which a `node` program's stdout and stderr reach a place they share (`node -e … 2>&1`). Node writes
 * both streams synchronously when they are files or pipes, each `console.log`/`process.stdout.write` call one write,
 * so they arrive in program order. js-exec's worker hands back the two streams whole; so the node prelude
 * (node-prelude.ts) tags each write to stderr with how much stdout was written before it —
 * `MARKER<stdout length>;<text length>BEL<text>` — and {@link withNodeOutputOrder} takes the tags off again and turns
 * them into the result's `outputOrder` (patches/just-bash/joined-output-order.mjs). Text the worker itself writes to
 * stderr (untagged) came after everything the program wrote.
 * @see https://nodejs.org/api/process.html#a-note-on-process-io ("Files: synchronous on Windows and POSIX; Pipes
 * (and sockets): synchronous on Linux")
 */
import type { ExecResult } from 'just-bash';
import { orderOf, type OrderedResult } from './output-order.ts';

/**
 * `result` with the prelude's tags (after `marker`) taken out of its stderr, and the `outputOrder` they give when the
 * program wrote to both streams. Lengths are in UTF-16 code units on both sides (the worker decodes what the
 * program wrote as UTF-8 into the same text). A result without tags is returned as it is.
 */
export function withNodeOutputOrder(result: ExecResult, marker: string): ExecResult | OrderedResult {
  const err = result.stderr;
  if (!err.includes(marker)) return result;
  const marks: [number, number][] = [];
  let stderr = '';
  let at = 0;
  const untagged = (text: string) => {
    if (text === '') return;
    marks.push([result.stdout.length, text.length]);
    stderr += text;
  };
  while (at < err.length) {
    const next = err.indexOf(marker, at);
    if (next < 0) {
      untagged(err.slice(at));
      break;
    }
    untagged(err.slice(at, next));
    const head = /^(\d+);(\d+)\u0007/.exec(err.slice(next + marker.length, next + marker.length + 40));
    if (!head) {
      // Not a tag after all (the program printed the marker's text itself): kept as text.
      untagged(err.slice(next, next + marker.length));
      at = next + marker.length;
      continue;
    }
    const start = next + marker.length + head[0].length;
    const text = err.slice(start, start + Number(head[2]));
    if (text !== '') {
      marks.push([Math.min(Number(head[1]), result.stdout.length), text.length]);
      stderr += text;
    }
    at = start + text.length;
  }
  // just-bash's record of the stderr bytes already counted against the output limit may not exceed the new stderr.
  const accounting = (result as { internalOutputAccounting?: { stdout: number; stderr: number } }).internalOutputAccounting;
  const rest = { ...result, stderr, ...(accounting ? { internalOutputAccounting: { ...accounting, stderr: Math.min(accounting.stderr, Buffer.byteLength(stderr)) } } : {}) };
  if (stderr === '' || result.stdout === '') return rest;
  return { ...rest, outputOrder: orderOf(marks, 'before-errors') };
}
