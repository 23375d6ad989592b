/**
 * `expr` as GNU coreutils evaluates: `| & < <= = == != >= > + - * / % :` by precedence, `match`, `substr`,
 * `index`, `length`, `+ TOKEN`, parentheses; integers of any size; `STRING : REGEX` an anchored BRE giving the
 * `\(…\)` group or the length matched. Exit 0 for a result that is neither empty nor 0, 1 otherwise, 2 for a bad
 * expression (`syntax error`, `non-integer argument`, `division by zero`).
 * @see https://www.gnu.org/software/coreutils/manual/html_node/expr-invocation.html
 */
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { execLongest } from './posix-match.ts';
import { compileGrep } from './grep-regex.ts';

class ExprError extends Error {}

const isInt = (s: string) => /^[-+]?\d+$/.test(s);
const big = (s: string) => {
  if (!isInt(s)) throw new ExprError('non-integer argument');
  return BigInt(s);
};
const isNull = (s: string) => s === '' || (isInt(s) && BigInt(s) === 0n);

function evaluate(args: string[]): string {
  let pos = 0;
  const peek = () => args[pos];
  const take = () => {
    if (pos >= args.length) throw new ExprError(`syntax error: missing argument after ‘${args[pos - 1]}’`);
    return args[pos++]!;
  };
  const or = (): string => {
    let a = and();
    while (peek() === '|') {
      pos++;
      const b = and();
      a = !isNull(a) ? a : b;
    }
    return a;
  };
  const and = (): string => {
    let a = cmp();
    while (peek() === '&') {
      pos++;
      const b = cmp();
      a = !isNull(a) && !isNull(b) ? a : '0';
    }
    return a;
  };
  const cmp = (): string => {
    let a = add();
    for (let op = peek(); op && ['<', '<=', '=', '==', '!=', '>=', '>'].includes(op); op = peek()) {
      pos++;
      const b = add();
      const c = isInt(a) && isInt(b) ? (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0) : a < b ? -1 : a > b ? 1 : 0;
      const t = op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '=' || op === '==' ? c === 0 : op === '!=' ? c !== 0 : op === '>=' ? c >= 0 : c > 0;
      a = t ? '1' : '0';
    }
    return a;
  };
  const add = (): string => {
    let a = mul();
    for (let op = peek(); op === '+' || op === '-'; op = peek()) {
      pos++;
      const b = mul();
      a = String(op === '+' ? big(a) + big(b) : big(a) - big(b));
    }
    return a;
  };
  const mul = (): string => {
    let a = match();
    for (let op = peek(); op === '*' || op === '/' || op === '%'; op = peek()) {
      pos++;
      const b = match();
      const x = big(a);
      const y = big(b);
      if (op !== '*' && y === 0n) throw new ExprError('division by zero');
      a = String(op === '*' ? x * y : op === '/' ? x / y : x % y);
    }
    return a;
  };
  const regexMatch = (s: string, re: string): string => {
    const compiled = compileGrep([re], 'basic', { ignoreCase: false, word: false, line: false });
    if ('error' in compiled) throw new ExprError(compiled.error.replace(/^grep: /, ''));
    const m = execLongest(new RegExp(`^${compiled.regex.source}`, 'u'), s);
    if (/\\\(/.test(re)) return m?.[1] ?? '';
    return String(m ? [...m[0]].length : 0);
  };
  const match = (): string => {
    let a = primary();
    while (peek() === ':') {
      pos++;
      a = regexMatch(a, primary());
    }
    return a;
  };
  // expr.c eval6: `+ TOKEN` quotes the token; `length`, `match`, `index` and `substr` take their operands as eval6
  // does (so `length + length` is 6 and `length length abc` is 1); anything else is eval7's.
  const primary = (): string => {
    const t = peek();
    if (t === '+') {
      pos++;
      return take();
    }
    if (t === 'length' || t === 'match' || t === 'index' || t === 'substr') {
      pos++;
      const a = primary();
      if (t === 'length') return String([...a].length);
      const b = primary();
      if (t === 'match') return regexMatch(a, b);
      if (t === 'index') return String([...a].findIndex((c) => b.includes(c)) + 1);
      const l = primary();
      const s = [...a];
      if (!isInt(b) || !isInt(l) || Number(b) < 1 || Number(l) < 1) return '';
      return s.slice(Number(b) - 1, Number(b) - 1 + Number(l)).join('');
    }
    return atom();
  };
  // expr.c eval7: a parenthesised expression or one argument; a `)` here is out of place.
  const atom = (): string => {
    const t = take();
    if (t === '(') {
      const v = or();
      if (take() !== ')') throw new ExprError(`syntax error: expecting ‘)’ after ‘${args[pos - 2]}’`);
      return v;
    }
    if (t === ')') throw new ExprError("syntax error: unexpected ')'");
    return t;
  };
  if (args.length === 0) throw new ExprError('missing operand');
  const v = or();
  if (pos < args.length) throw new ExprError(`syntax error: unexpected argument ‘${args[pos]}’`);
  return v;
}

/** `expr` for just-bash's `customCommands`. */
export function exprCommands(): CustomCommand[] {
  return [
    defineCommand('expr', async (args): Promise<ExecResult> => {
      const a = args[0] === '--' ? args.slice(1) : args;
      try {
        const v = evaluate(a);
        return { stdout: `${v}\n`, stderr: '', exitCode: isNull(v) ? 1 : 0 };
      } catch (err) {
        if (!(err instanceof ExprError)) throw err;
        const usage = err.message === 'missing operand' ? "\nTry 'expr --help' for more information." : '';
        return { stdout: '', stderr: `expr: ${err.message}${usage}\n`, exitCode: 2 };
      }
    }),
  ];
}
