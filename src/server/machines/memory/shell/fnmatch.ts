/**
 * Shell pattern matching as POSIX `fnmatch` does it (`*`, `?`, `[…]`, `[!…]`, `\x`), with the two flags GNU tools
 * use: FNM_PERIOD (a leading `.` only by a literal one: `ls -I`, `--hide`) and FNM_CASEFOLD (`find -iname`). A pure
 * function; `/` is an ordinary character (no FNM_PATHNAME), as `find -path` wants.
 */

/** The pattern as an anchored regular expression; null when it does not translate. */
function toRegExp(pat: string, casefold: boolean): RegExp | null {
  let re = '^';
  for (let i = 0; i < pat.length; i++) {
    const c = pat[i]!;
    if (c === '*') re += '[^]*';
    else if (c === '?') re += '[^]';
    else if (c === '[') {
      let j = i + 1;
      if (pat[j] === '!' || pat[j] === '^') j++;
      if (pat[j] === ']') j++;
      const end = pat.indexOf(']', j);
      if (end < 0) re += '\\[';
      else {
        let set = pat.slice(i + 1, end);
        if (set[0] === '!') set = `^${set.slice(1)}`;
        re += `[${set.replace(/\\(?!\])/g, '\\\\').replace(/\[(?!:)/g, '\\[')}]`;
        i = end;
      }
    } else if (c === '\\' && i + 1 < pat.length) re += pat[++i]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    else re += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  try {
    return new RegExp(`${re}$`, casefold ? 'i' : '');
  } catch {
    return null;
  }
}

/** Whether `name` matches the shell pattern `pat`. */
export function fnmatch(pat: string, name: string, flags: { period?: boolean; casefold?: boolean } = {}): boolean {
  if (flags.period && name.startsWith('.') && !pat.startsWith('.')) return false;
  const re = toRegExp(pat, flags.casefold ?? false);
  return re ? re.test(name) : pat === name;
}
