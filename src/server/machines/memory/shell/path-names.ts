/**
 * GNU `dirname` and `basename`, over strings only (neither looks at the filesystem): the last component found as
 * gnulib's `last_component` finds it, `/` kept for the root however many slashes spell it, trailing slashes
 * dropped, a suffix removed only when something is left, `-z` ending each name with NUL.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/dirname-invocation.html, basename-invocation.html
 */
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { localeQuote } from './gnu-quote.ts';

const usage = (cmd: string, what: string): ExecResult => ({ stdout: '', stderr: `${cmd}: ${what}\nTry '${cmd} --help' for more information.\n`, exitCode: 1 });

/** Index where the last component of `name` starts (past leading slashes; the end for an all-slash name). */
function lastComponent(name: string): number {
  let base = 0;
  while (name[base] === '/') base++;
  let slash = false;
  for (let p = base; p < name.length; p++) {
    if (name[p] === '/') slash = true;
    else if (slash) {
      base = p;
      slash = false;
    }
  }
  return base;
}

/** `dirname NAME`: everything before the last component, without trailing slashes; `.` when nothing. */
export function dirnameOf(name: string): string {
  const prefix = name.startsWith('/') ? 1 : 0;
  let length = lastComponent(name);
  while (length > prefix && name[length - 1] === '/') length--;
  return length === 0 ? '.' : name.slice(0, length);
}

/** `basename NAME [SUFFIX]`: the last component without trailing slashes and `suffix` (unless that is all of it). */
export function basenameOf(name: string, suffix = ''): string {
  if (name !== '' && /^\/+$/.test(name)) return '/';
  let base = name.slice(lastComponent(name)).replace(/\/+$/, '');
  if (suffix && base.length > suffix.length && base.endsWith(suffix)) base = base.slice(0, -suffix.length);
  return base;
}

/**
 * Splits GNU-style options (`-z`, `--zero`, `-a`, `-s X`, `--suffix=X`) from operands; usage on an unknown one.
 * `permute`: options may follow operands (getopt's default, as `dirname`); without it the first operand ends the
 * options (`basename`'s getopt string starts with `+`: `basename -s .txt a.txt -a` names `-a`).
 */
function parse(cmd: string, args: string[], known: string, permute: boolean): { flags: Set<string>; suffix?: string; operands: string[] } | ExecResult {
  const flags = new Set<string>();
  const operands: string[] = [];
  let suffix: string | undefined;
  const long: Record<string, string> = { '--zero': 'z', '--multiple': 'a' };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!permute && operands.length > 0) {
      operands.push(a);
      continue;
    }
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--suffix') && known.includes('s')) {
      suffix = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i];
      flags.add('a');
    } else if (long[a] && known.includes(long[a]!)) flags.add(long[a]!);
    else if (a.startsWith('--')) return usage(cmd, `unrecognized option '${a}'`);
    else if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (!known.includes(c)) return usage(cmd, `invalid option -- '${c}'`);
        if (c === 's') {
          suffix = a.slice(j + 1) || args[++i];
          if (suffix === undefined) return usage(cmd, "option requires an argument -- 's'");
          flags.add('a');
          break;
        }
        flags.add(c);
      }
    } else operands.push(a);
  }
  return { flags, suffix, operands };
}

/** `dirname` and `basename` for just-bash's `customCommands`. */
export function pathNameCommands(): CustomCommand[] {
  return [
    defineCommand('dirname', async (args) => {
      const p = parse('dirname', args, 'z', true);
      if (!('flags' in p)) return p;
      if (p.operands.length === 0) return usage('dirname', 'missing operand');
      const end = p.flags.has('z') ? '\0' : '\n';
      return { stdout: p.operands.map((o) => dirnameOf(o) + end).join(''), stderr: '', exitCode: 0 };
    }),
    defineCommand('basename', async (args, ctx) => {
      const p = parse('basename', args, 'azs', false);
      if (!('flags' in p)) return p;
      if (p.operands.length === 0) return usage('basename', 'missing operand');
      const end = p.flags.has('z') ? '\0' : '\n';
      if (!p.flags.has('a')) {
        if (p.operands.length > 2) return usage('basename', `extra operand ${localeQuote(ctx.env, p.operands[2]!)}`);
        return { stdout: basenameOf(p.operands[0]!, p.operands[1]) + end, stderr: '', exitCode: 0 };
      }
      return { stdout: p.operands.map((o) => basenameOf(o, p.suffix) + end).join(''), stderr: '', exitCode: 0 };
    }),
  ];
}
