/**
 * The command lines of `sprite-env` (src/agent/sprite-env.ts): the table of its commands (`info`, `version`,
 * `services …`, `checkpoints …`, `curl`) with their operands, flags and help texts, the parsing of a command line
 * against it, and the request each stands for. It does no I/O: sending and printing are sprite-env.ts's.
 * @see docs/wire-reference.md §12
 */

/** One request to the in-sprite API. */
export interface ApiRequest {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

/** What a command line stands for: a help text to print, or a request whose answer is printed in a `print` form. */
export type SpriteEnvCommand = { kind: 'help'; text: string } | { kind: 'request'; req: ApiRequest; print: 'body' | 'info' | 'version' };

/** A command line `sprite-env` cannot run: `message`, then `usage` (the help of the command it got to), on stderr; exit 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
  }
}

/** A flag of a command: `value` names its value in the help (absent: a switch); `many`: it may repeat. */
interface FlagSpec {
  value?: string;
  help: string;
  many?: boolean;
}

/** What a command line parsed into: operands in order, the values of each valued flag, the switches given. */
interface Parsed {
  operands: string[];
  values: Map<string, string[]>;
  switches: Set<string>;
}

/** One command (`info`, `services create`…): what the help says and what it builds. */
interface CommandSpec {
  /** Its words after `sprite-env` (`services create`). */
  words: string;
  /** Its operands, as the usage names them (`<name>`); each required. */
  operands: string[];
  summary: string;
  /** Longer text after the options in its help (may be empty). */
  notes?: string;
  flags: Record<string, FlagSpec>;
  /** Other spellings of flags (`-X` for `--request`). */
  aliases?: Record<string, string>;
  build(p: Parsed): SpriteEnvCommand;
}

const request = (req: ApiRequest, print: 'body' | 'info' | 'version' = 'body'): SpriteEnvCommand => ({ kind: 'request', req, print });
const seg = (s: string) => encodeURIComponent(s);
const last = (p: Parsed, flag: string) => p.values.get(flag)?.at(-1);
const list = (v: string | undefined) => (v === undefined || v === '' ? [] : v.split(','));
const query = (pairs: Record<string, string | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(pairs)) if (v !== undefined) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
};

/**
 * `--env` values: `K=v` pairs separated by commas (`A=1,B=2`), a comma starting a new pair only before `NAME=`, so
 * a value may hold commas (`A=x,y`). Repeated flags add pairs.
 */
export function envPairs(values: readonly string[], usage: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const value of values) {
    for (const pair of value.split(/,(?=[A-Za-z_][A-Za-z0-9_]*=)/)) {
      const at = pair.indexOf('=');
      if (at <= 0) throw new UsageError(`sprite-env services create: --env wants K=V, got ${JSON.stringify(pair)}`, usage);
      env[pair.slice(0, at)] = pair.slice(at + 1);
    }
  }
  return env;
}

/** The path (and query) a `curl` target names: `/v1/x` as is, `v1/x` rooted, a URL (`http://sprite/v1/x`) its path. */
export function apiPathOf(target: string): string {
  if (/^https?:\/\//i.test(target)) {
    try {
      const u = new URL(target);
      return `${u.pathname}${u.search}`;
    } catch {
      // Not a URL after all: a path below.
    }
  }
  return target.startsWith('/') ? target : `/${target}`;
}

const DURATION: FlagSpec = { value: 'D', help: 'how long to stream the service\'s events before returning (default 5s)' };

const COMMANDS: CommandSpec[] = [
  {
    words: 'info',
    operands: [],
    summary: 'this sprite as one line of JSON: sprite_name, sprite_id, organization, sprite_url, version',
    flags: {},
    build: () => request({ method: 'GET', path: '/v1/sprite' }, 'info'),
  },
  {
    words: 'version',
    operands: [],
    summary: 'the Sprite-Version of this sprite (also in /.sprite/version.txt)',
    flags: {},
    build: () => request({ method: 'GET', path: '/v1/sprite' }, 'version'),
  },
  {
    words: 'services list',
    operands: [],
    summary: 'every service with its state (JSON)',
    flags: {},
    build: () => request({ method: 'GET', path: '/v1/services' }),
  },
  {
    words: 'services get',
    operands: ['<name>'],
    summary: 'one service with its state (JSON)',
    flags: {},
    build: (p) => request({ method: 'GET', path: `/v1/services/${seg(p.operands[0]!)}` }),
  },
  {
    words: 'services create',
    operands: ['<name>'],
    summary: 'defines a service and starts it (replacing one of that name); streams its events (NDJSON)',
    notes: 'example: sprite-env services create web --cmd python3 --args -m,http.server,8080 --http-port 8080',
    flags: {
      '--cmd': { value: 'PATH', help: 'the program to run (required; run directly, not through a shell)' },
      '--args': { value: 'a,b,c', help: 'its arguments, split at commas (repeatable)', many: true },
      '--env': { value: 'K=v,K2=v2', help: 'its extra environment (repeatable; a comma starts a pair only before NAME=)', many: true },
      '--dir': { value: 'PATH', help: 'its working directory (default /home/sprite)' },
      '--needs': { value: 's1,s2', help: 'services that must run before it starts' },
      '--http-port': { value: 'N', help: 'the port the sprite URL reaches (one service at most)' },
      '--duration': DURATION,
      '--no-stream': { help: 'return once the service is started, without streaming its events' },
    },
    build(p) {
      const usage = helpOf(this);
      const cmd = last(p, '--cmd');
      if (!cmd) throw new UsageError('sprite-env services create: --cmd is required', usage);
      if (p.switches.has('--no-stream') && p.values.has('--duration')) throw new UsageError('sprite-env services create: --no-stream and --duration exclude each other', usage);
      const body: Record<string, unknown> = { cmd, args: (p.values.get('--args') ?? []).flatMap(list), needs: list(last(p, '--needs')) };
      const port = last(p, '--http-port');
      if (port !== undefined) {
        if (!/^\d+$/.test(port)) throw new UsageError(`sprite-env services create: --http-port wants a port number, got ${JSON.stringify(port)}`, usage);
        body.http_port = Number(port);
      }
      const env = envPairs(p.values.get('--env') ?? [], usage);
      if (Object.keys(env).length > 0) body.env = env;
      if (last(p, '--dir') !== undefined) body.dir = last(p, '--dir');
      const duration = p.switches.has('--no-stream') ? '0s' : last(p, '--duration');
      return request({ method: 'PUT', path: `/v1/services/${seg(p.operands[0]!)}${query({ duration })}`, body: JSON.stringify(body) });
    },
  },
  {
    words: 'services delete',
    operands: ['<name>'],
    summary: 'removes a service\'s definition (refused while it runs or another needs it); its log stays',
    flags: {},
    build: (p) => request({ method: 'DELETE', path: `/v1/services/${seg(p.operands[0]!)}` }),
  },
  ...(['start', 'restart'] as const).map(
    (verb): CommandSpec => ({
      words: `services ${verb}`,
      operands: ['<name>'],
      summary: verb === 'start' ? 'starts a service (and what it needs); streams its events (NDJSON)' : 'stops a service, then starts it; streams its events (NDJSON)',
      flags: { '--duration': DURATION },
      build: (p) => request({ method: 'POST', path: `/v1/services/${seg(p.operands[0]!)}/${verb}${query({ duration: last(p, '--duration') })}` }),
    }),
  ),
  {
    words: 'services stop',
    operands: ['<name>'],
    summary: 'sends TERM, then KILL after the timeout; the service stays stopped until started (NDJSON)',
    flags: { '--timeout': { value: 'D', help: 'how long to wait after TERM before KILL (default 10s)' } },
    build: (p) => request({ method: 'POST', path: `/v1/services/${seg(p.operands[0]!)}/stop${query({ timeout: last(p, '--timeout') })}` }),
  },
  {
    words: 'services signal',
    operands: ['<name>', '<signal>'],
    summary: 'sends a signal (TERM, HUP, INT, USR1, USR2, KILL…, with or without SIG) to a running service',
    flags: {},
    build: (p) => request({ method: 'POST', path: '/v1/services/signal', body: JSON.stringify({ name: p.operands[0], signal: p.operands[1] }) }),
  },
  {
    words: 'services logs',
    operands: ['<name>'],
    summary: 'the last lines of a service\'s log, then its live output for the duration (NDJSON)',
    flags: { '--lines': { value: 'N', help: 'how many of the last lines' }, '--duration': { value: 'D', help: 'how long to follow the live output (default 0)' } },
    build: (p) => request({ method: 'GET', path: `/v1/services/${seg(p.operands[0]!)}/logs${query({ lines: last(p, '--lines'), duration: last(p, '--duration') })}` }),
  },
  {
    words: 'checkpoints list',
    operands: [],
    summary: 'Current, then the checkpoints newest first (JSON); with --history, the ids of those that descend from one',
    flags: { '--history': { value: 'ID', help: 'only the checkpoints whose history holds ID (one id a line)' } },
    build: (p) => request({ method: 'GET', path: `/v1/checkpoints${query({ history: last(p, '--history') })}` }),
  },
  {
    words: 'checkpoints get',
    operands: ['<id>'],
    summary: 'one checkpoint: id, create_time, comment, history (JSON)',
    flags: {},
    build: (p) => request({ method: 'GET', path: `/v1/checkpoints/${seg(p.operands[0]!)}` }),
  },
  {
    words: 'checkpoints create',
    operands: [],
    summary: 'a checkpoint of the whole disk now; streams its progress (NDJSON)',
    flags: { '--comment': { value: 'TEXT', help: 'what it is for (it is what tells checkpoints apart later)' } },
    build: (p) => {
      const comment = last(p, '--comment');
      return request({ method: 'POST', path: '/v1/checkpoint', body: JSON.stringify(comment === undefined ? {} : { comment }) });
    },
  },
  {
    words: 'checkpoints restore',
    operands: ['<id>'],
    summary: 'rewinds the disk to a checkpoint; every running command ends, this one too (NDJSON)',
    notes: 'An automatic checkpoint of the state replaced is taken first. Services start again from their definitions.',
    flags: {},
    build: (p) => request({ method: 'POST', path: `/v1/checkpoints/${seg(p.operands[0]!)}/restore` }),
  },
  {
    words: 'curl',
    operands: ['<path>'],
    summary: 'any request to this sprite\'s API; the answer printed as the other commands print it',
    notes: 'example: sprite-env curl -X POST /v1/tasks -d \'{"name":"job","expire":"30m"}\'',
    flags: {
      '--request': { value: 'METHOD', help: 'the method (default GET, POST with --data)' },
      '--data': { value: 'DATA', help: 'the body (JSON unless a Content-Type header says otherwise)' },
      '--header': { value: "'K: V'", help: 'a request header (repeatable)', many: true },
    },
    aliases: { '-X': '--request', '-d': '--data', '-H': '--header', '--data-raw': '--data', '--data-binary': '--data' },
    build(p) {
      const headers: Record<string, string> = {};
      for (const h of p.values.get('--header') ?? []) {
        const at = h.indexOf(':');
        if (at <= 0) throw new UsageError(`sprite-env curl: a header is 'Name: value', got ${JSON.stringify(h)}`, helpOf(this));
        headers[h.slice(0, at).trim()] = h.slice(at + 1).trim();
      }
      const data = last(p, '--data');
      return request({ method: last(p, '--request') ?? (data === undefined ? 'GET' : 'POST'), path: apiPathOf(p.operands[0]!), body: data, headers });
    },
  },
];

/** The groups of commands and their one-line descriptions. */
const GROUPS: Record<string, string> = { services: 'services this sprite keeps running', checkpoints: 'copies of the whole disk' };

/** The usage text of one command. */
function helpOf(c: CommandSpec): string {
  const names = Object.keys(c.flags);
  const aliasOf = (f: string) => Object.entries(c.aliases ?? {}).filter(([, to]) => to === f).map(([a]) => a);
  const shown = (f: string) => [...aliasOf(f).filter((a) => a.length === 2), f].join(', ') + (c.flags[f]!.value ? ` ${c.flags[f]!.value}` : '');
  const width = Math.max(0, ...names.map((f) => shown(f).length));
  const lines = [`usage: sprite-env ${c.words}${c.operands.map((o) => ` ${o}`).join('')}${names.length ? ' [options]' : ''}`, '', c.summary];
  if (names.length) lines.push('', 'options:', ...names.map((f) => `  ${shown(f).padEnd(width)}  ${c.flags[f]!.help}`));
  lines.push(`  ${'-h, --help'.padEnd(width)}  this help`);
  if (c.notes) lines.push('', c.notes);
  return `${lines.join('\n')}\n`;
}

/** The usage text of a group (`services`, `checkpoints`): its commands, one line each. */
function groupHelp(group: string): string {
  const cmds = COMMANDS.filter((c) => c.words.startsWith(`${group} `));
  const heads = cmds.map((c) => `${c.words.slice(group.length + 1)}${c.operands.map((o) => ` ${o}`).join('')}`);
  const width = Math.max(...heads.map((h) => h.length));
  return [
    `usage: sprite-env ${group} <command> [args]`,
    '',
    `${group}: ${GROUPS[group]}. Commands:`,
    ...cmds.map((c, i) => `  ${heads[i]!.padEnd(width)}  ${c.summary}`),
    '',
    `'sprite-env ${group} <command> --help' shows a command's options. With no command: list.`,
    '',
  ].join('\n');
}

/** The top-level usage text (`sprite-env --help`). */
export const USAGE = [
  'usage: sprite-env <command> [args]',
  '',
  "sprite-env manages this sprite through its API (/.sprite/api.sock). Commands:",
  '  info                        this sprite: name, id, organization, URL, version (JSON)',
  '  version                     the Sprite-Version of this sprite',
  `  services <command>          ${COMMANDS.filter((c) => c.words.startsWith('services ')).map((c) => c.words.split(' ')[1]).join(', ')}`,
  `  checkpoints <command>       ${COMMANDS.filter((c) => c.words.startsWith('checkpoints ')).map((c) => c.words.split(' ')[1]).join(', ')}`,
  '  curl [options] <path>       any request to this sprite\'s API',
  '',
  "'sprite-env <command> --help' shows a command's usage; /.sprite/docs/agent-context.md describes the API.",
  '',
].join('\n');

const isHelp = (a: string) => a === '--help' || a === '-h';

/**
 * Parses `args` (what follows a command's words) by `c`'s flags: `--flag value`, `--flag=value`, switches, `--`
 * ending the options. @throws UsageError for an unknown option, a missing value, or the wrong number of operands.
 */
function parseArgs(c: CommandSpec, args: string[]): Parsed {
  const usage = helpOf(c);
  const p: Parsed = { operands: [], values: new Map(), switches: new Set() };
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!options || !a.startsWith('-') || a === '-') {
      p.operands.push(a);
      continue;
    }
    if (a === '--') {
      options = false;
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const given = eq > 0 ? a.slice(0, eq) : a;
    const flag = c.aliases?.[given] ?? given;
    const spec = c.flags[flag];
    if (!spec) throw new UsageError(`sprite-env ${c.words}: unknown option ${given}`, usage);
    if (!spec.value) {
      if (eq > 0) throw new UsageError(`sprite-env ${c.words}: ${given} takes no value`, usage);
      p.switches.add(flag);
      continue;
    }
    const value = eq > 0 ? a.slice(eq + 1) : args[++i];
    if (value === undefined) throw new UsageError(`sprite-env ${c.words}: ${given} needs a value`, usage);
    if (!spec.many && p.values.has(flag)) throw new UsageError(`sprite-env ${c.words}: ${given} given twice`, usage);
    p.values.set(flag, [...(p.values.get(flag) ?? []), value]);
  }
  if (p.operands.length < c.operands.length) throw new UsageError(`sprite-env ${c.words}: missing ${c.operands[p.operands.length]}`, usage);
  if (p.operands.length > c.operands.length) throw new UsageError(`sprite-env ${c.words}: unexpected argument ${JSON.stringify(p.operands[c.operands.length])}`, usage);
  return p;
}

/** Whether `args` asks for help: `-h` or `--help` where an option may stand (not a flag's value, not after `--`). */
function asksHelp(c: CommandSpec, args: string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return false;
    if (isHelp(a)) return true;
    const flag = c.aliases?.[a] ?? a;
    if (c.flags[flag]?.value) i++;
  }
  return false;
}

/**
 * Turns a `sprite-env` command line into what it stands for: a help text (`--help`/`-h`/`help` at any level) or a
 * request with the form its answer is printed in. A group with no command lists.
 * @throws UsageError for an unknown command, option or argument count (the message, and the usage to print).
 */
export function commandOf(argv: string[]): SpriteEnvCommand {
  const [first, second, ...rest] = argv;
  if (first === undefined) throw new UsageError('sprite-env: missing command', USAGE);
  if (isHelp(first) || first === 'help') return { kind: 'help', text: USAGE };
  if (first in GROUPS) {
    if (second === undefined) return commandOf([first, 'list']);
    if (isHelp(second) || second === 'help') return { kind: 'help', text: groupHelp(first) };
    const c = COMMANDS.find((x) => x.words === `${first} ${second}`);
    if (!c) throw new UsageError(`sprite-env ${first}: unknown command ${JSON.stringify(second)}`, groupHelp(first));
    if (asksHelp(c, rest)) return { kind: 'help', text: helpOf(c) };
    return c.build(parseArgs(c, rest));
  }
  const c = COMMANDS.find((x) => x.words === first);
  if (!c) throw new UsageError(`sprite-env: unknown command ${JSON.stringify(first)}`, USAGE);
  const args = argv.slice(1);
  if (asksHelp(c, args)) return { kind: 'help', text: helpOf(c) };
  return c.build(parseArgs(c, args));
}

/**
 * The request a command line stands for (see `commandOf`).
 * @throws UsageError as `commandOf` does, and for a command line that asks for help.
 */
export function requestOf(argv: string[]): ApiRequest {
  const c = commandOf(argv);
  if (c.kind !== 'request') throw new UsageError('sprite-env: a help request sends nothing', c.text);
  return c.req;
}

