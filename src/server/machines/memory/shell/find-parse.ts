/**
 * GNU `find`'s command line read into a tree: the leading `-H -L -P`, the starting points, the global options
 * (`-maxdepth`, `-mindepth`, `-depth`…) and the expression with its operators (`( )`, `!`/`-not`, `-a`, `-o`, `,`),
 * tests and actions, as findutils parses them. A predicate the shell engine cannot evaluate is a loud refusal;
 * one GNU does not know gets GNU's words. Evaluation is find-command.ts's.
 * @see https://www.gnu.org/software/findutils/manual/html_node/find_html/index.html
 */

/** A node of the expression. */
export type FindNode =
  | { kind: 'and' | 'or' | 'comma'; left: FindNode; right: FindNode }
  | { kind: 'not'; expr: FindNode }
  | { kind: 'test'; name: string; args: string[] }
  | { kind: 'action'; name: string; args: string[] };

/** A parsed `find` command line. */
export interface FindCommand {
  follow: 'never' | 'args' | 'always';
  starts: string[];
  maxdepth: number;
  mindepth: number;
  depthFirst: boolean;
  expr: FindNode;
  /** Whether the expression has an action of its own (else `-print` is added). */
  hasAction: boolean;
}

/** A command line find rejects: its stderr and exit status. */
export interface FindError {
  stderr: string;
  exitCode: number;
}

const HINT = 'run spritzer with --exec sandbox';
export const findRefusal = (what: string): FindError => ({ stderr: `find: ${what} is not available in the shell engine; ${HINT}\n`, exitCode: 2 });

/** Tests and how many arguments each takes. */
const TESTS: Record<string, number> = {
  '-name': 1, '-iname': 1, '-path': 1, '-ipath': 1, '-wholename': 1, '-iwholename': 1, '-regex': 1, '-iregex': 1,
  '-lname': 1, '-ilname': 1, '-type': 1, '-xtype': 1, '-size': 1, '-empty': 0, '-newer': 1, '-anewer': 1,
  '-cnewer': 1, '-mtime': 1, '-atime': 1, '-ctime': 1, '-mmin': 1, '-amin': 1, '-cmin': 1, '-perm': 1, '-user': 1,
  '-group': 1, '-uid': 1, '-gid': 1, '-nouser': 0, '-nogroup': 0, '-links': 1, '-executable': 0, '-readable': 0,
  '-writable': 0, '-true': 0, '-false': 0, '-samefile': 1, '-used': 1, '-inum': 1,
};
/** Actions and how many arguments each takes (`-exec` and `-execdir` take up to `;` or `+`). */
const ACTIONS: Record<string, number> = { '-print': 0, '-print0': 0, '-printf': 1, '-delete': 0, '-prune': 0, '-quit': 0, '-exec': -1, '-execdir': -1 };
/** Global options and how many arguments each takes. */
const GLOBALS: Record<string, number> = {
  '-maxdepth': 1, '-mindepth': 1, '-depth': 0, '-d': 0, '-xdev': 0, '-mount': 0, '-noleaf': 0, '-follow': 0,
  '-ignore_readdir_race': 0, '-noignore_readdir_race': 0, '-regextype': 1, '-warn': 0, '-nowarn': 0, '-daystart': 0,
};
/** Predicates GNU has that need what a sprite's emulation lacks (other files to write, a terminal…). */
const REFUSED = new Set(['-ls', '-fls', '-fprint', '-fprint0', '-fprintf', '-ok', '-okdir', '-context', '-fstype', '-sparse']);

/** Reads `args` (after the command name); a rejection or refusal comes back as a {@link FindError}. */
export function parseFind(args: readonly string[]): FindCommand | FindError {
  let i = 0;
  let follow: FindCommand['follow'] = 'never';
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-H') follow = 'args';
    else if (a === '-L') follow = 'always';
    else if (a === '-P') follow = 'never';
    else if (a === '-D' || a === '-O' || /^-O\d$/.test(a)) {
      if (a !== '-O' && a !== '-D') continue;
      i++;
    } else break;
  }
  const starts: string[] = [];
  while (i < args.length && !(args[i]!.startsWith('-') && args[i] !== '-') && args[i] !== '(' && args[i] !== '!') starts.push(args[i++]!);
  const cmd: FindCommand = { follow, starts: starts.length ? starts : ['.'], maxdepth: Infinity, mindepth: 0, depthFirst: false, expr: { kind: 'test', name: '-true', args: [] }, hasAction: false };
  const tokens = args.slice(i);
  let pos = 0;
  let regexType = 'emacs';
  let failure: FindError | null = null;
  const fail = (e: FindError): FindNode => {
    failure ??= e;
    return { kind: 'test', name: '-false', args: [] };
  };

  const primary = (): FindNode | null => {
    const t = tokens[pos++];
    if (t === undefined) return null;
    if (t === '(') {
      const inner = comma();
      if (tokens[pos] !== ')') return fail({ stderr: "find: invalid expression; I was expecting to find a ')' somewhere but did not see one.\n", exitCode: 1 });
      pos++;
      return inner ?? fail({ stderr: "find: invalid expression; empty parentheses are not allowed.\n", exitCode: 1 });
    }
    if (t === '!' || t === '-not') {
      const e = primary();
      return e ? { kind: 'not', expr: e } : fail({ stderr: `find: invalid expression; you have used a binary operator '${t}' with nothing before it.\n`, exitCode: 1 });
    }
    if (t in GLOBALS) {
      const n = GLOBALS[t]!;
      const v = tokens.slice(pos, pos + n);
      if (v.length < n) return fail({ stderr: `find: missing argument to \`${t}'\n`, exitCode: 1 });
      pos += n;
      if (t === '-maxdepth' || t === '-mindepth') {
        if (!/^\d+$/.test(v[0]!)) return fail({ stderr: `find: Expected a positive decimal integer argument to ${t}, but got '${v[0]}'\n`, exitCode: 1 });
        if (t === '-maxdepth') cmd.maxdepth = Number(v[0]);
        else cmd.mindepth = Number(v[0]);
      } else if (t === '-depth' || t === '-d') cmd.depthFirst = true;
      else if (t === '-follow') cmd.follow = 'always';
      else if (t === '-regextype' && !['emacs', 'posix-extended', 'posix-basic', 'egrep', 'findutils-default'].includes(v[0]!)) return fail(findRefusal(`-regextype ${v[0]}`));
      else if (t === '-regextype') regexType = v[0]!;
      else if (t === '-daystart') return fail(findRefusal('-daystart'));
      return { kind: 'test', name: '-true', args: [] };
    }
    // -newerXY with X and Y of m, a, c (the change time is the modification time here) or Y = t (a date string): one argument.
    const newerXY = /^-newer[amc][amct]$/.test(t);
    if (t in TESTS || t in ACTIONS || newerXY) {
      let n = newerXY ? 1 : (TESTS[t] ?? ACTIONS[t]!);
      if (n < 0) {
        const end = tokens.findIndex((x, k) => k >= pos && (x === ';' || (x === '+' && tokens[k - 1] === '{}')));
        if (end < 0) return fail({ stderr: `find: missing argument to \`${t}'\n`, exitCode: 1 });
        n = end - pos + 1;
      }
      const v = tokens.slice(pos, pos + n);
      if (v.length < n) return fail({ stderr: `find: missing argument to \`${t}'\n`, exitCode: 1 });
      pos += n;
      if (t in ACTIONS) {
        if (t !== '-prune') cmd.hasAction = true;
        if (t === '-delete') cmd.depthFirst = true;
        return { kind: 'action', name: t, args: v };
      }
      return { kind: 'test', name: t, args: t === '-regex' || t === '-iregex' ? [v[0]!, regexType] : v };
    }
    if (REFUSED.has(t) || /^-newer[amcBt]{2}$/.test(t)) return fail(findRefusal(`the predicate ${t}`));
    if (t.startsWith('-')) return fail({ stderr: `find: unknown predicate \`${t}'\n`, exitCode: 1 });
    return fail({ stderr: `find: paths must precede expression: \`${t}'\nfind: possible unquoted pattern after predicate \`${tokens[pos - 2] ?? ''}'?\n`, exitCode: 1 });
  };
  const isStop = (t: string | undefined) => t === undefined || t === ')' || t === '-o' || t === '-or' || t === ',';
  const and = (): FindNode | null => {
    let left = primary();
    if (!left) return null;
    for (;;) {
      const t = tokens[pos];
      if (isStop(t)) return left;
      if (t === '-a' || t === '-and') pos++;
      const right = primary();
      if (!right) return fail({ stderr: `find: invalid expression; you have used a binary operator '${t}' with nothing after it.\n`, exitCode: 1 });
      left = { kind: 'and', left, right };
    }
  };
  const or = (): FindNode | null => {
    let left = and();
    while (left && (tokens[pos] === '-o' || tokens[pos] === '-or')) {
      pos++;
      const right = and();
      if (!right) return fail({ stderr: "find: invalid expression; you have used a binary operator '-o' with nothing after it.\n", exitCode: 1 });
      left = { kind: 'or', left, right };
    }
    return left;
  };
  const comma = (): FindNode | null => {
    let left = or();
    while (left && tokens[pos] === ',') {
      pos++;
      const right = or();
      if (!right) return fail({ stderr: "find: invalid expression; you have used a binary operator ',' with nothing after it.\n", exitCode: 1 });
      left = { kind: 'comma', left, right };
    }
    return left;
  };
  const expr = comma();
  if (failure) return failure;
  if (pos < tokens.length) {
    return tokens[pos] === ')'
      ? { stderr: "find: invalid expression; you have too many ')'\n", exitCode: 1 }
      : { stderr: `find: paths must precede expression: \`${tokens[pos]}'\n`, exitCode: 1 };
  }
  if (expr) cmd.expr = expr;
  return cmd;
}
