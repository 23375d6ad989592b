/**
 * GNU `date` for the `shell` engine: the current time from the engine's clock, `-d STRING` (date-parse.ts), `-f FILE`
 * (one date per line, `-` for stdin), `-r FILE` (its modification time), `-u`, `+FORMAT` (date-format.ts), `-I[FMT]`,
 * `-R` and `--rfc-3339=FMT`, in the zone `TZ` names (UTC when unset, as on a sprite). Setting the clock (`-s`, a
 * `MMDDhhmm` operand) is refused loudly: a sprite's clock is the host's.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/date-invocation.html
 */
import { secondsAndNanos } from './file-time.ts';
import { defineCommand, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { parseDateString } from './date-parse.ts';
import { formatDate } from './date-format.ts';
import { argmatchMessage, localeQuote } from './gnu-quote.ts';

const HINT = 'run spritzer with --exec sandbox';
const DEFAULT_FORMAT = '%a %b %e %H:%M:%S %Z %Y';
const ISO_FORMATS: Record<string, string> = { date: '%F', hours: '%FT%H%:z', minutes: '%FT%H:%M%:z', seconds: '%FT%T%:z', ns: '%FT%T,%N%:z' };
const RFC3339_FORMATS: Record<string, string> = { date: '%F', seconds: '%F %T%:z', ns: '%F %T.%N%:z' };
const TRY = "Try 'date --help' for more information.\n";

/** Options of one `date` run. */
interface DateOptions { dates: string[]; file?: string; reference?: string; utc: boolean; format?: string; formats: number }

/** gnulib argmatch's message for a value an option does not take, with the values it does (one meaning each). */
const badArgument = (env: Map<string, string>, value: string, option: string, valid: string[]) => argmatchMessage(env, value, option, valid.map((v) => [v]));

/** Reads `args` as GNU date's getopt does; an ExecResult for a usage error or a loud refusal. */
function parseArgs(args: string[], env: Map<string, string>): DateOptions | ExecResult {
  const o: DateOptions = { dates: [], utc: false, formats: 0 };
  const usage = (msg: string): ExecResult => ({ stdout: '', stderr: `date: ${msg}\n${TRY}`, exitCode: 1 });
  const setFormat = (f: string) => {
    o.format = f;
    o.formats++;
  };
  /** The value of an option: glued (`-dX`, `--date=X`) or the next argument. */
  const valueOf = (i: number, glued: string | undefined, name: string): [string, number] | ExecResult => {
    if (glued !== undefined) return [glued, i];
    if (i + 1 >= args.length) return usage(name.startsWith('--') ? `option '${name}' requires an argument` : `option requires an argument -- '${name.slice(1)}'`);
    return [args[i + 1]!, i + 1];
  };
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    const long = /^--([a-z0-9-]+)(?:=(.*))?$/s.exec(a);
    if (long) {
      const [, name, glued] = long;
      const match = ['date', 'file', 'reference', 'utc', 'universal', 'iso-8601', 'rfc-email', 'rfc-2822', 'rfc-3339', 'set', 'debug', 'resolution'].filter((n) => n.startsWith(name!));
      const opt = match.includes(name!) ? name! : match.length === 1 ? match[0]! : undefined;
      if (!opt) return usage(match.length > 1 ? `option '${a}' is ambiguous` : `unrecognized option '${a}'`);
      if (opt === 'utc' || opt === 'universal') o.utc = true;
      else if (opt === 'rfc-email' || opt === 'rfc-2822') setFormat('%a, %d %b %Y %H:%M:%S %z');
      else if (opt === 'iso-8601') {
        const f = glued ?? 'date';
        const key = Object.keys(ISO_FORMATS).find((k) => k.startsWith(f) && f !== '');
        if (!key) return usage(badArgument(env, f, '--iso-8601', ['hours', 'minutes', 'date', 'seconds', 'ns']));
        setFormat(ISO_FORMATS[key]!);
      } else if (opt === 'rfc-3339') {
        if (glued === undefined) return usage("option '--rfc-3339' requires an argument");
        const key = Object.keys(RFC3339_FORMATS).find((k) => k.startsWith(glued) && glued !== '');
        if (!key) return usage(badArgument(env, glued, '--rfc-3339', ['date', 'seconds', 'ns']));
        setFormat(RFC3339_FORMATS[key]!);
      } else if (opt === 'set' || opt === 'debug' || opt === 'resolution') {
        return { stdout: '', stderr: `date: option --${opt} is not available in the shell engine; ${HINT}\n`, exitCode: 2 };
      } else {
        const v = valueOf(i, glued, `--${opt}`);
        if (!Array.isArray(v)) return v;
        [, i] = v;
        if (opt === 'date') o.dates.push(v[0]);
        else if (opt === 'file') o.file = v[0];
        else o.reference = v[0];
      }
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const f = a[j]!;
        const rest = j + 1 < a.length ? a.slice(j + 1) : undefined;
        if (f === 'u') o.utc = true;
        else if (f === 'R') setFormat('%a, %d %b %Y %H:%M:%S %z');
        else if (f === 'I') {
          const key = rest === undefined ? 'date' : Object.keys(ISO_FORMATS).find((k) => k.startsWith(rest));
          if (!key) return usage(badArgument(env, rest!, '--iso-8601', ['hours', 'minutes', 'date', 'seconds', 'ns']));
          setFormat(ISO_FORMATS[key]!);
          break;
        } else if (f === 'd' || f === 'f' || f === 'r') {
          const v = valueOf(i, rest, `-${f}`);
          if (!Array.isArray(v)) return v;
          [, i] = v;
          if (f === 'd') o.dates.push(v[0]);
          else if (f === 'f') o.file = v[0];
          else o.reference = v[0];
          break;
        } else if (f === 's') return { stdout: '', stderr: `date: option -s is not available in the shell engine; ${HINT}\n`, exitCode: 2 };
        else return usage(`invalid option -- '${f}'`);
      }
      continue;
    }
    operands.push(a);
  }
  for (const op of operands) {
    if (op.startsWith('+')) setFormat(op.slice(1));
    else if (operands.length === 1 && o.dates.length === 0 && !o.file && /^\d{8}(\d{2}|\d{4})?(\.\d{2})?$/.test(op)) {
      return { stdout: '', stderr: `date: setting the date is not available in the shell engine; ${HINT}\n`, exitCode: 2 };
    } else return usage(`extra operand ${localeQuote(env, op)}`);
  }
  if (o.formats > 1) return { stdout: '', stderr: 'date: multiple output formats specified\n', exitCode: 1 };
  if ([o.dates.length > 0, o.file !== undefined, o.reference !== undefined].filter(Boolean).length > 1) return usage('the options to specify dates for printing are mutually exclusive');
  return o;
}

async function date(args: string[], ctx: CommandContext, now: number): Promise<ExecResult> {
  const o = parseArgs(args, ctx.env);
  if ('exitCode' in o) return o;
  // `-u` is TZ=UTC0 for the whole run: dates are read and printed in UTC.
  const tz = o.utc ? 'UTC0' : ctx.env.get('TZ');
  const parseTz = tz;
  const format = o.format ?? DEFAULT_FORMAT;
  const show = (ms: number, ns: number) => `${formatDate(format, { ms, ns, tz })}\n`;
  const invalid = (s: string) => `date: invalid date ${localeQuote(ctx.env, s)}\n`;
  if (o.reference !== undefined) {
    const path = ctx.fs.resolvePath(ctx.cwd, o.reference);
    try {
      const st = await ctx.fs.stat(path);
      const { nanos } = secondsAndNanos(st.mtime);
      return { stdout: show(st.mtime.getTime(), nanos), stderr: '', exitCode: 0 };
    } catch {
      return { stdout: '', stderr: `date: ${o.reference}: No such file or directory\n`, exitCode: 1 };
    }
  }
  if (o.file !== undefined) {
    let text: string;
    if (o.file === '-') text = String(ctx.stdin ?? '');
    else {
      try {
        text = await ctx.fs.readFile(ctx.fs.resolvePath(ctx.cwd, o.file));
      } catch {
        return { stdout: '', stderr: `date: ${o.file}: No such file or directory\n`, exitCode: 1 };
      }
    }
    let stdout = '';
    let stderr = '';
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    for (const line of lines) {
      const r = parseDateString(line, now, parseTz);
      if (r) stdout += show(r.ms, r.ns);
      else stderr += invalid(line);
    }
    return { stdout, stderr, exitCode: stderr ? 1 : 0 };
  }
  const text = o.dates[o.dates.length - 1];
  if (text === undefined) return { stdout: show(now, (now % 1000) * 1e6), stderr: '', exitCode: 0 };
  const r = parseDateString(text, now, parseTz);
  if (!r) return { stdout: '', stderr: invalid(text), exitCode: 1 };
  return { stdout: show(r.ms, r.ns), stderr: '', exitCode: 0 };
}

/** GNU `date` reading the time from `now` (epoch ms, the engine's clock). */
export function dateCommand(now: () => number): CustomCommand {
  return defineCommand('date', (args, ctx) => date(args, ctx, now()));
}
