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
  const primary = (): string => {
    const t = take();
    if (t === '(') {
      const v = or();
      if (take() !== ')') throw new ExprError(`syntax error: expecting ‘)’ after ‘${args[pos - 2]}’`);
      return v;
    }
    if (t === '+' && pos < args.length) return take();
    if (t === 'length') return String([...take()].length);
    if (t === 'match') {
      const s = take();
      return regexMatch(s, take());
    }
    if (t === 'index') {
      const s = [...take()];
      const chars = take();
      const k = s.findIndex((c) => chars.includes(c));
      return String(k + 1);
    }
    if (t === 'substr') {
      const s = [...take()];
      const p = take();
      const l = take();
      if (!isInt(p) || !isInt(l) || Number(p) < 1 || Number(l) < 1) return '';
      return s.slice(Number(p) - 1, Number(p) - 1 + Number(l)).join('');
    }
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
