/**
 * What a sprite's `sh` (Ubuntu's `/bin/sh` is dash) shows that bash does not, for the shell engine, whose `sh` runs
 * its script on the same interpreter as `bash`: dash's `echo` always reads backslash escapes (bash's `xpg_echo`),
 * and dash words its own messages `NAME: LINE: …` (`sh: 1: nope: not found`, `sh: 1: cd: can't cd to /x`) where
 * bash writes `NAME: line LINE: …` (`…: command not found`, `cd: /x: No such file or directory`).
 * @deviation Only these: bash-only syntax (`[[`, arrays, `${x//a/b}`, `$'…'`, brace expansion) still runs under
 * `sh` instead of failing as dash fails, and `echo -e` takes `-e` as an option (dash prints it).
 * @see dash(1) "echo", "Builtins"; docs/fidelity.md "What the shell engine cannot do"
 */

/** The shell option a dash-flavoured script starts with: `echo` reads escapes, as dash's does. */
export const DASH_PREAMBLE = 'shopt -s xpg_echo';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `stderr` of a script run as `sh` with dash's wording for the shell's own messages: lines that start with the
 * shell's `name` (`sh`, or the script file's name) or `environment` (a function of `sh -c`), then `line N: `.
 * A command not found, `cd` to a missing directory and the generic prefix are rewritten; a program's own messages
 * (they start with the program's name) are left alone.
 * @param stderr the script's standard error, as the interpreter wrote it
 * @param name `$0` of the script: `sh` for `sh -c`, the file for `sh FILE`
 */
export function dashMessages(stderr: string, name: string): string {
  if (!stderr.includes(': line ')) return stderr;
  const prefix = new RegExp(`^(?:${escapeRegExp(name)}|environment): line (\\d+): `, 'gm');
  return stderr
    .replace(new RegExp(`^(?:${escapeRegExp(name)}|environment): line (\\d+): (.+): command not found$`, 'gm'), `${name}: $1: $2: not found`)
    .replace(new RegExp(`^(?:${escapeRegExp(name)}|environment): line (\\d+): cd: (.+): (?:No such file or directory|Not a directory|Permission denied)$`, 'gm'), `${name}: $1: cd: can't cd to $2`)
    .replace(prefix, `${name}: $1: `);
}

/**
 * `result` of a script run as `sh` with {@link dashMessages} applied to its stderr, run by run when it carries an
 * `outputOrder` (alternating stdout/stderr lengths, output-order.ts), so that the order stays right.
 */
export function dashResult<R extends { stderr: string; outputOrder?: number[] }>(result: R, name: string): R {
  if (!result.stderr.includes(': line ')) return result;
  if (!result.outputOrder) return charged({ ...result, stderr: dashMessages(result.stderr, name) });
  const order = [...result.outputOrder];
  let at = 0;
  let stderr = '';
  for (let k = 1; k < order.length; k += 2) {
    const run = dashMessages(result.stderr.slice(at, at + order[k]!), name);
    at += order[k]!;
    order[k] = run.length;
    stderr += run;
  }
  stderr += dashMessages(result.stderr.slice(at), name);
  return charged({ ...result, stderr, outputOrder: order });
}

/**
 * The result with just-bash's record of the stderr bytes already counted against the output limit
 * (`internalOutputAccounting`) no larger than the rewritten stderr, which it checks.
 */
function charged<R extends { stderr: string }>(result: R): R {
  const accounting = (result as { internalOutputAccounting?: { stdout: number; stderr: number } }).internalOutputAccounting;
  if (!accounting) return result;
  return { ...result, internalOutputAccounting: { ...accounting, stderr: Math.min(accounting.stderr, Buffer.byteLength(result.stderr)) } };
}
