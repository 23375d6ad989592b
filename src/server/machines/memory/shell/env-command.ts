/**
 * GNU `env` and `printenv` for the shell engine, over the shell's *exported* variables (a plain `x=1` is not in the
 * environment), and the variables bash sets for itself without exporting them (`IFS`, `OSTYPE`, `HOSTNAME`…).
 * `env` takes `-i`/`-`, `-u NAME`, `-C DIR`, `-0`, `-S STRING`, `-v`, `--`, `NAME=VALUE` words, then runs the
 * command with exactly that environment. It owns the options and the environment; running is just-bash's.
 * @see GNU coreutils manual "env invocation", "printenv invocation"; bash(1) "Shell Variables"
 */
import { defineCommand, latin1FromBytes, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { shellQuote } from '../argv.ts';
import { localeQuote } from './gnu-quote.ts';
import { unsupported } from './gnu-commands.ts';
import { execOnOwnStdin } from './inherited-stdin.ts';
import { exported } from './child-environment.ts';
import { notOnPath, programNotFound, reportExecFailure } from './exec-failure.ts';
import { quoteName } from './ls-quote.ts';
import { programPath } from './program-path.ts';

/**
 * The variables bash sets for itself, unexported, in a non-interactive shell on an x86_64 Linux sprite whose host
 * name is `hostname` (bash 5.2's values; `SHELLOPTS`/`BASHOPTS` as of `bash -c`).
 */
export function bashVariables(hostname: string): Record<string, string> {
  return {
    // The path bash was started as: a sprite's `bash` on PATH is /usr/bin/bash (Ubuntu's /bin is /usr/bin).
    BASH: '/usr/bin/bash',
    // The release `bash --version` names (shell-command.ts BASH_VERSION_TEXT; the interpreter's BASH_VERSINFO).
    BASH_VERSION: '5.2.37(1)-release',
    // Where `enable -f` looks for loadable builtins: bash 5.2's compiled-in default (config-top.h).
    BASH_LOADABLES_PATH: '/usr/local/lib/bash:/usr/lib/bash:/opt/local/lib/bash:/usr/pkg/lib/bash:/opt/pkg/lib/bash:.',
    IFS: ' \t\n',
    OSTYPE: 'linux-gnu',
    MACHTYPE: 'x86_64-pc-linux-gnu',
    HOSTTYPE: 'x86_64',
    HOSTNAME: hostname,
    OPTERR: '1',
    OPTIND: '1',
    PS4: '+ ',
    SHELLOPTS: 'braceexpand:hashall:interactive-comments',
    BASHOPTS: 'checkwinsize:cmdhist:complete_fullquote:extquote:force_fignore:globasciiranges:globskipdots:hostcomplete:interactive_comments:patsub_replacement:progcomp:promptvars:sourcepath',
  };
}

/**
 * The variables bash gives itself only when its environment lacks them, unexported: `TERM` reads `dumb` (bash
 * variables.c, `set_if_not ("TERM", "dumb")`), so `tput` and `$TERM` tests in a `bash -c` without a terminal see what
 * they see on a real machine. dash sets none of them.
 */
export const BASH_FALLBACKS: Readonly<Record<string, string>> = { TERM: 'dumb' };

/**
 * The `PATH` a shell gives itself when it inherits none, as a shell variable (not exported): bash's compiled-in
 * default (bash(1) "PATH", config-top.h DEFAULT_PATH_VALUE), or dash's for a sprite's `sh` (dash var.c `defpathvar`).
 * Only an unset-then-searched PATH finds nothing (patches/just-bash/path-unset-or-empty.mjs).
 */
export function startingPath(bash: boolean): string {
  return bash ? '/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:.' : '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
}

const text = (stdout: string, exitCode = 0, stderr = ''): ExecResult => ({ stdout, stderr, exitCode });
const usage = (line: string) => text('', 125, `env: ${line}\nTry 'env --help' for more information.\n`);

export { exported } from './child-environment.ts';

/** A `-S` string env refuses (exit 125), with GNU's message. */
export class SplitStringError extends Error {}

const S_ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', $: '$', '#': '#', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/**
 * `-S STRING` split as GNU env splits it (coreutils manual, "env invocation"): words on blanks; `'…'` literal but
 * for `\\` and `\'`; `"…"` and bare text with the escapes `\\ \' \" \$ \# \f \n \r \t \v`, `\_` (a space in
 * quotes, a word break outside), `\c` (the rest ignored) and `${NAME}` from `env`; `#` starting a word starts a
 * comment. Throws {@link SplitStringError} for another escape or a `$` not followed by `{NAME}`.
 */
export function splitString(s: string, env: Map<string, string> = new Map()): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  const add = (t: string) => (word = (word ?? '') + t);
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else if (c === '\\' && (s[i + 1] === '\\' || s[i + 1] === "'")) add(s[++i]!);
      else add(c);
    } else if (c === '\\') {
      const e = s[++i];
      if (e === 'c') break;
      if (e === '_') {
        if (quote) add(' ');
        else if (word !== null) words.push(word), (word = null);
      } else if (e !== undefined && S_ESCAPES[e] !== undefined) add(S_ESCAPES[e]!);
      else throw new SplitStringError(`env: invalid sequence '\\${e ?? ''}' in -S\n`);
    } else if (c === '$') {
      const m = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(s.slice(i));
      if (!m) throw new SplitStringError(`env: only \${VARNAME} expansion is supported, error at: ${s.slice(i)}\n`);
      add(env.get(m[1]!) ?? '');
      i += m[0].length - 1;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else add(c);
    } else if (c === "'" || c === '"') {
      quote = c;
      add('');
    } else if (c === ' ' || c === '\t' || c === '\n' || c === '\v' || c === '\f' || c === '\r') {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === '#' && word === null) break;
    else add(c);
  }
  if (word !== null) words.push(word);
  return words;
}

interface EnvOptions {
  ignore: boolean;
  unset: string[];
  chdir: string | null;
  nul: boolean;
  verbose: boolean;
  rest: string[];
}

/** Reads env's options (they end at the first word that is not one, as GNU env's do). */
function parseEnvArgs(args: string[], env: Map<string, string>): EnvOptions | ExecResult {
  const o: EnvOptions = { ignore: false, unset: [], chdir: null, nul: false, verbose: false, rest: [] };
  let i = 0;
  const split = (v: string): string[] | ExecResult => {
    try {
      return splitString(v, env);
    } catch (err) {
      if (err instanceof SplitStringError) return { stdout: '', stderr: err.message, exitCode: 125 };
      throw err;
    }
  };
  const value = (inline: string, flag: string): string | ExecResult => {
    if (inline) return inline;
    const v = args[++i];
    return v === undefined ? usage(`option requires an argument -- '${flag}'`) : v;
  };
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (a === '-') o.ignore = true;
    else if (a.startsWith('--')) {
      const [name, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, ''];
      const take = () => (inline ? inline : args[++i]);
      if (name === '--ignore-environment') o.ignore = true;
      else if (name === '--null') o.nul = true;
      else if (name === '--debug') o.verbose = true;
      else if (name === '--unset' || name === '--chdir' || name === '--split-string') {
        const v = take();
        if (v === undefined) return usage(`option '${name}' requires an argument`);
        if (name === '--unset') o.unset.push(v);
        else if (name === '--chdir') o.chdir = v;
        else {
          const words = split(v);
          if (!Array.isArray(words)) return words;
          args.splice(i + 1, 0, ...words);
        }
      } else if (name === '--help' || name === '--version') return unsupported('env', name);
      else return usage(`unrecognized option '${a}'`);
    } else if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const f = a[j]!;
        if (f === 'i') o.ignore = true;
        else if (f === '0') o.nul = true;
        else if (f === 'v') o.verbose = true;
        else if (f === 'u' || f === 'C' || f === 'S') {
          const v = value(a.slice(j + 1), f);
          if (typeof v !== 'string') return v;
          if (f === 'u') o.unset.push(v);
          else if (f === 'C') o.chdir = v;
          else {
            const words = split(v);
            if (!Array.isArray(words)) return words;
            args.splice(i + 1, 0, ...words);
          }
          break;
        } else return usage(`invalid option -- '${f}'`);
      }
    } else break;
  }
  o.rest = args.slice(i);
  return o;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;


async function env(args: string[], ctx: CommandContext): Promise<ExecResult> {
  const o = parseEnvArgs([...args], ctx.env);
  if (!('rest' in o)) return o;
  const vars = o.ignore ? {} : exported(ctx);
  for (const name of o.unset) delete vars[name];
  let i = 0;
  for (; i < o.rest.length && o.rest[i]!.includes('='); i++) {
    const a = o.rest[i]!;
    vars[a.slice(0, a.indexOf('='))] = a.slice(a.indexOf('=') + 1);
  }
  const argv = o.rest.slice(i);
  if (argv.length === 0) {
    if (o.chdir !== null) return usage('must specify command with --chdir (-C)');
    return text(Object.entries(vars).map(([k, v]) => `${k}=${v}${o.nul ? '\0' : '\n'}`).join(''));
  }
  if (o.nul) return usage('cannot specify --null (-0) with command');
  const debug = o.verbose ? `executing: ${argv[0]}\n${argv.map((a, n) => `   arg[${n}]= ${localeQuote(ctx.env, a)}\n`).join('')}` : '';
  const cwd = o.chdir === null ? ctx.cwd : ctx.fs.resolvePath(ctx.cwd, o.chdir);
  if (o.chdir !== null && !(await ctx.fs.stat(cwd).then((s) => s.isDirectory).catch(() => false))) {
    return text('', 125, `${debug}env: cannot change directory to ${quoteName(o.chdir, 'shell-escape-always')}: No such file or directory\n`);
  }
  if (!ctx.exec) return text('', 126, `env: cannot run ${argv[0]} here\n`);
  // execvp searches the PATH of the command's environment, for programs only (not the shell's builtins or functions).
  const failed = (why: string) => `env: ${localeQuote(ctx.env, argv[0]!)}: ${why}`;
  if (await notOnPath(ctx.fs, cwd, argv[0]!, vars.PATH)) {
    const r = programNotFound(failed);
    return { ...r, stderr: debug + r.stderr };
  }
  // The command's environment is exactly `vars`, all of it exported (the shell's own PWD only when it is one).
  // just-bash keeps one set of exported names for all its nested runs: what is exported here for the command is
  // unexported again after it, so that the calling shell's exports stay its own.
  const before = new Set(Object.keys(exported(ctx)));
  const names = Object.keys(vars).filter((n) => NAME.test(n));
  const added = names.filter((n) => !before.has(n));
  const hidePwd = !('PWD' in vars) && before.has('PWD');
  const setup = [names.length > 0 ? `export ${names.join(' ')}` : '', hidePwd ? 'export -n PWD' : ''].filter(Boolean);
  const restore = [added.length > 0 ? `export -n ${added.join(' ')}` : '', hidePwd ? 'export PWD' : ''].filter(Boolean);
  // GNU env execs a program: never the shell's builtin of that name, and 127 when PATH has none (`env cd`).
  const program = await programPath(ctx.fs, ctx.cwd, argv[0]!, vars.PATH);
  if (program === null) return text('', 127, `${debug}env: ${localeQuote(ctx.env, argv[0]!)}: No such file or directory\n`);
  const run = [program, ...argv.slice(1)].map(shellQuote).join(' ');
  const script = restore.length === 0 ? `${setup.join('; ')}\n${run}` : `${setup.join('; ')}\n${run}\n__spritzer_env_status=$?; ${restore.join('; ')}; exit $__spritzer_env_status`;
  // GNU env execs the command with exactly `vars`, in their order: its `_` is env's own pathname, or none after -i
  // (the patched interpreter's `keepUnderscore` and `keepEnvOrder`, patches/just-bash/underscore-variable.mjs and
  // variables-export-order.mjs, leave them so).
  const result = await execOnOwnStdin(ctx, script, {
    env: vars,
    replaceEnv: true,
    // Every name of it, `BASH_FUNC_f%%` of an `export -f` too (no `export` statement can name that one).
    ...{ exportedNames: Object.keys(vars) },
    cwd,
    signal: ctx.signal,
    ...{ keepUnderscore: true, keepEnvOrder: true },
  });
  // The shell's failure to run the program (`bash: line N: X: command not found`) is env's own execvp failure.
  const reported = reportExecFailure(result, argv[0]!, failed);
  return { ...reported, stderr: debug + reported.stderr };
}

function printenv(args: string[], ctx: CommandContext): ExecResult {
  const nul = args.includes('-0') || args.includes('--null');
  const names = args.filter((a) => a !== '-0' && a !== '--null');
  const bad = names.find((a) => a.startsWith('-') && a !== '--');
  if (bad) return text('', 2, `printenv: invalid option -- '${bad.slice(1)}'\nTry 'printenv --help' for more information.\n`);
  const vars = exported(ctx);
  const end = nul ? '\0' : '\n';
  if (names.length === 0) return text(Object.entries(vars).map(([k, v]) => `${k}=${v}${end}`).join(''));
  const wanted = names.filter((n) => n !== '--');
  const found = wanted.filter((n) => n in vars);
  return text(found.map((n) => `${vars[n]}${end}`).join(''), found.length === wanted.length ? 0 : 1);
}

/** `env` and `printenv` (see the module comment). */
export function envCommands(): CustomCommand[] {
  return [defineCommand('env', env), defineCommand('printenv', async (args, ctx) => printenv(args, ctx))];
}
