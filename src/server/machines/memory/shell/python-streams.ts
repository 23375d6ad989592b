/**
 * The order in which a `python3` program's stdout and stderr reach a place they share (`python3 x.py 2>&1`). CPython
 * writes stderr line by line but, when stdout is not a terminal and neither `-u` nor `PYTHONUNBUFFERED` asks
 * otherwise, stdout in chunks of 8192 bytes: a program that prints a few
 * lines and then fails shows its traceback first and its lines after it, when it exits. just-bash's CPython hands
 * back the two streams whole, so the prelude counts, for each write to stderr, how much stdout a buffered CPython
 * would have delivered by then (its explicit flushes included), and reports those counts on a last line of stderr
 * that {@link withPythonOutputOrder} takes off again and turns into the result's `outputOrder`. A program read from a
 * file or stdin has its stdout flushed before the error that ends it is printed (CPython's PyRun_SimpleFileExFlags
 * calls flush_io() first); one given by `-c` or `-m` has not (the wrapper's `_spritzer_run` does the same).
 * (patches/just-bash/joined-output-order.mjs).
 * @see https://docs.python.org/3/library/sys.html#sys.stdout ("When interactive, stdout is line-buffered. Otherwise,
 * it is block-buffered like regular text files."), https://docs.python.org/3/using/cmdline.html#cmdoption-u
 */
import type { ExecResult } from 'just-bash';
import { orderOf, type OrderedResult } from './output-order.ts';

/**
 * The bytes CPython's text layer gathers before it hands them on (`_io.TextIOWrapper`'s chunk size, 8192): stdout
 * written through `print` reaches the pipe when that much is pending, or at a flush or exit.
 */
const TEXT_CHUNK = 8192;

/**
 * The prelude's Python (one statement per line): `_spritzer_streams(marker, buffered)` puts counting stand-ins in front of
 * `sys.stdout`/`sys.stderr` and returns the function that writes the report (`marker`, then the counts as
 * `delivered,length,…`, then a newline) to the real stderr. Unbuffered (`-u`, `PYTHONUNBUFFERED`, a terminal), every
 * write to stdout is delivered at once: the streams keep the program's order.
 */
export const PYTHON_STREAMS: readonly string[] = [
  'def _spritzer_streams(marker, buffered):',
  '    import sys',
  '    state, marks = {"total": 0, "pending": 0, "delivered": 0}, []',
  '    class Stdout:',
  '        def __init__(self, real): self._real = real',
  '        def write(self, s):',
  '            written = self._real.write(s)',
  '            size = len(s.encode("utf-8", "surrogateescape")) if isinstance(s, str) else len(s)',
  `            if state["pending"] + size > ${TEXT_CHUNK}: state["delivered"], state["pending"] = state["total"], 0`,
  '            state["total"] += len(s)',
  '            state["pending"] += size',
  `            if state["pending"] >= ${TEXT_CHUNK} or not buffered: state["delivered"], state["pending"] = state["total"], 0`,
  '            return written',
  '        def flush(self):',
  '            state["delivered"], state["pending"] = state["total"], 0',
  '            return self._real.flush()',
  '        def __enter__(self): return self',
  '        def __exit__(self, *exc): return self._real.__exit__(*exc)',
  '        def __getattr__(self, name): return getattr(self._real, name)',
  '    class Stderr:',
  '        def __init__(self, real): self._real = real',
  '        def write(self, s):',
  '            if s: marks.append((state["delivered"], len(s)))',
  '            return self._real.write(s)',
  '        def __enter__(self): return self',
  '        def __exit__(self, *exc): return self._real.__exit__(*exc)',
  '        def __getattr__(self, name): return getattr(self._real, name)',
  '    real_err = sys.stderr',
  '    sys.stdout, sys.stderr = Stdout(sys.stdout), Stderr(sys.stderr)',
  '    def report():',
  '        real_err.write(marker + ",".join(str(n) for mark in marks for n in mark) + "\\n")',
  '        real_err.flush()',
  '    return report',
];

/**
 * Whether a CPython started with `options` (the arguments before its program) and `environ` buffers stdout, as it
 * does when stdout is not a terminal (`terminal`) unless `-u` or a non-empty `PYTHONUNBUFFERED` says otherwise.
 */
export function buffersStdout(options: readonly string[], environ: Record<string, string>, terminal: boolean): boolean {
  return !terminal && !options.some((a) => /^-[^-]*u/.test(a)) && !environ.PYTHONUNBUFFERED;
}

/**
 * `result` without the report line the prelude wrote after `marker`, with the `outputOrder` it gives when the
 * program wrote to both streams. A result without the report (the program never ran: a syntax error CPython reports
 * itself) is returned as it is.
 */
export function withPythonOutputOrder(result: ExecResult, marker: string): ExecResult | OrderedResult {
  const at = result.stderr.lastIndexOf(marker);
  if (at < 0) return result;
  const end = result.stderr.indexOf('\n', at);
  const counts = result.stderr.slice(at + marker.length, end < 0 ? undefined : end).split(',').filter(Boolean).map(Number);
  const stderr = result.stderr.slice(0, at) + (end < 0 ? '' : result.stderr.slice(end + 1));
  const marks: [number, number][] = [];
  for (let i = 0; i + 1 < counts.length; i += 2) marks.push([counts[i]!, counts[i + 1]!]);
  const rest = { ...result, stderr };
  if (stderr === '' || result.stdout === '' || marks.length === 0) return rest;
  return { ...rest, outputOrder: orderOf(marks, 'before-errors') };
}
