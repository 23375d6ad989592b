/**
 * `sprite-env`, the command inside a sprite that wraps the in-sprite API on `/.sprite/api.sock` (docs/wire-reference.md
 * §12): `info`, `version`, `services list|get|create|delete|start|stop|restart|signal|logs`,
 * `checkpoints list|get|create|restore`, `curl`, and `--help`/`-h` on every group and command (the commands production's
 * docs name: superfly/skills `references/cli.md`, docs.sprites.dev concepts/services). It owns argument parsing,
 * the help texts and printing; the API itself is answered by spritzer through the agent (api-socket.ts) or the
 * in-memory engines' connection. Bodies are printed as the API sends them (JSON indented, NDJSON line by line as it
 * streams, text as is); `info` prints one line of JSON.
 * @see docs/wire-reference.md §9, §12
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { API_SOCKET_PATH } from '../protocol/sprite-tree.ts';

/** One request to the in-sprite API. */
export interface ApiRequest {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

/** Where `sprite-env` reaches the API: a unix socket path, or a function opening one connection (in-memory engines). */
export type ApiTarget = string | (() => Duplex);

/** Where `sprite-env` writes: stdout takes the answer as it arrives, stderr the failures. */
export interface SpriteEnvOutput {
  stdout: { write(chunk: string | Uint8Array): unknown };
  stderr: { write(chunk: string): unknown };
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

/**
 * Sends `req` to the API at `target`. Resolves with the response (its body unread) once the headers came; rejects
 * when the API cannot be reached.
 */
export function openRequest(req: ApiRequest, target: ApiTarget): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: 'sprite', ...(req.headers ?? {}) };
    if (req.body !== undefined) {
      if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(req.body));
    }
    const via = typeof target === 'string' ? { socketPath: target } : { createConnection: target as unknown as http.RequestOptions['createConnection'] };
    const r = http.request({ ...via, method: req.method, path: req.path, headers }, resolve);
    r.on('error', reject);
    r.end(req.body);
  });
}

/** The whole body of `res` as text. */
function bodyOf(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}

/**
 * Writes the body of `res` to `out` as it arrives: JSON whole and indented (the real tool prints JSON for humans),
 * anything else as the bytes come. Resolves with whether an NDJSON line said `"type":"error"` (an operation that
 * failed after its 200: a restore, a service action), which makes the command fail.
 */
async function printBody(res: http.IncomingMessage, out: SpriteEnvOutput['stdout']): Promise<boolean> {
  const type = String(res.headers['content-type'] ?? '');
  if (type.startsWith('application/json')) {
    const text = await bodyOf(res);
    try {
      out.write(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    } catch {
      out.write(text);
    }
    return false;
  }
  const ndjson = type.startsWith('application/x-ndjson');
  let partial = '';
  let failed = false;
  const decoder = new TextDecoder();
  const look = (line: string) => {
    try {
      if ((JSON.parse(line) as { type?: unknown }).type === 'error') failed = true;
    } catch {
      // Not JSON: printed as it came, judged by nothing.
    }
  };
  await new Promise<void>((resolve, reject) => {
    res.on('data', (c: Buffer) => {
      out.write(c);
      if (!ndjson) return;
      const lines = (partial + decoder.decode(c, { stream: true })).split('\n');
      partial = lines.pop() ?? '';
      lines.forEach(look);
    });
    res.on('end', () => resolve());
    res.on('error', reject);
  });
  if (ndjson && partial.trim()) look(partial);
  return failed;
}

// ---------------------------------------------------------------------------------------------------------------
// The command table: each command's operands, flags and help, and the request it stands for.

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

/**
 * The `info` line for the sprite `GET /v1/sprite` answered (the public API's sprite object) and the `Sprite-Version`
 * of that answer: `{"sprite_name","sprite_id","organization","sprite_url","version"}`.
 * @deviation Production's key names other than `sprite_url` (which scripts read) are UNCONFIRMED.
 */
export function infoOf(sprite: { name?: unknown; id?: unknown; organization?: unknown; url?: unknown }, version: string): string {
  return `${JSON.stringify({ sprite_name: sprite.name, sprite_id: sprite.id, organization: sprite.organization, sprite_url: sprite.url, version })}\n`;
}

/**
 * The `sprite-env` command: runs `argv` against the API at `target` (default `/.sprite/api.sock`), writing to `out`
 * (default the process's stdout and stderr). Resolves with the exit code: 0 for a help text or a 2xx answer (an
 * NDJSON answer with an `error` line is a failure), 1 for any other status or a connection failure, 2 for bad
 * usage (the message and the usage on stderr).
 */
export async function spriteEnvMain(argv: string[], target: ApiTarget = API_SOCKET_PATH, out: SpriteEnvOutput = process): Promise<number> {
  let command: SpriteEnvCommand;
  try {
    command = commandOf(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    out.stderr.write(`${err.message}\n\n${err.usage}`);
    return 2;
  }
  if (command.kind === 'help') {
    out.stdout.write(command.text);
    return 0;
  }
  const { req, print } = command;
  try {
    const res = await openRequest(req, target);
    const status = res.statusCode ?? 0;
    const ok = status >= 200 && status < 300;
    if (ok && print !== 'body') {
      const version = String(res.headers['sprite-version'] ?? '');
      const text = await bodyOf(res);
      if (print === 'version') {
        out.stdout.write(`${version}\n`);
        return 0;
      }
      let sprite: Record<string, unknown>;
      try {
        sprite = JSON.parse(text) as Record<string, unknown>;
      } catch {
        out.stderr.write(`sprite-env: ${req.method} ${req.path}: the answer is not JSON\n`);
        return 1;
      }
      out.stdout.write(infoOf(sprite, version));
      return 0;
    }
    const failed = await printBody(res, out.stdout);
    if (!ok) {
      out.stderr.write(`sprite-env: ${req.method} ${req.path}: HTTP ${status}\n`);
      return 1;
    }
    if (failed) {
      out.stderr.write(`sprite-env: ${req.method} ${req.path}: the operation reported an error\n`);
      return 1;
    }
    return 0;
  } catch (err) {
    out.stderr.write(`sprite-env: cannot reach ${typeof target === 'string' ? target : API_SOCKET_PATH}: ${(err as Error).message}\n`);
    return 1;
  }
}
