/**
 * GNU `unexpand`'s option rules, applied to a command line before just-bash's `unexpand` runs it: `-t`/`--tabs`
 * converts every run of blanks, as `-a` does, and `--first-only` converts only the leading ones whatever `-a` or
 * `-t` said (coreutils manual, "unexpand invocation"). just-bash knew neither rule.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/unexpand-invocation.html
 */

/** `args` with `-a` added when tab stops are given, and `-a`/`--all` and `--first-only` taken out under `--first-only`. */
export function unexpandArgs(args: string[]): string[] {
  const end = args.indexOf('--');
  const options = end < 0 ? args : args.slice(0, end);
  const rest = end < 0 ? [] : args.slice(end);
  const firstOnly = options.includes('--first-only');
  const tabs = options.some((a) => /^-t|^--tabs/.test(a) || /^-\d+$/.test(a));
  const kept = options.filter((a) => a !== '--first-only' && !(firstOnly && (a === '-a' || a === '--all')));
  return [...(tabs && !firstOnly ? ['-a'] : []), ...kept, ...rest];
}
