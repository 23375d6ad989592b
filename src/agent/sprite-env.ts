/**
 * `sprite-env`, the command inside a sprite that wraps the in-sprite API on `/.sprite/api.sock` (docs/wire-reference.md
 * §12): `services list|get|create|start|stop|restart|delete|logs`, `checkpoints list|create`, `curl`. It owns
 * argument parsing and printing; the API itself is answered by spritzer through the agent (api-socket.ts). Bodies
 * are printed as the API sends them (JSON pretty-printed, NDJSON line by line as it streams).
 * @see docs/wire-reference.md §9, §12
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { API_SOCKET_PATH } from '../protocol/sprite-tree.ts';

const USAGE = `usage: sprite-env <command> [args]

  services list                      list services
  services get <name>                show one service
  services create <name> --cmd CMD [--args a,b,...] [--needs s1,s2] [--http-port N]
                  [--env K=V]... [--dir DIR] [--duration 5s]
  services start|restart <name> [--duration 5s]
  services stop <name> [--timeout 10s]
  services delete <name>
  services logs <name> [--lines N] [--duration D]
  checkpoints list
  checkpoints create [--comment TEXT]
  curl [-X METHOD] [-d DATA] [-H 'K: V']... <path>
`;

/** One request to the in-sprite API. */
interface ApiRequest {
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

/** Sends `req` to the API and writes the answer to `out` as it arrives. Resolves with the HTTP status. */
function send(req: ApiRequest, target: ApiTarget, out: SpriteEnvOutput['stdout']): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: 'sprite', ...(req.headers ?? {}) };
    if (req.body !== undefined) {
      headers['Content-Type'] ??= 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(req.body));
    }
    const via = typeof target === 'string' ? { socketPath: target } : { createConnection: target as unknown as http.RequestOptions['createConnection'] };
    const r = http.request({ ...via, method: req.method, path: req.path, headers }, (res) => {
      const type = String(res.headers['content-type'] ?? '');
      if (type.startsWith('application/json')) {
        // A JSON body is printed whole, indented (the real tool prints JSON for humans).
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            out.write(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
          } catch {
            out.write(text);
          }
          resolve(res.statusCode ?? 0);
        });
      } else {
        res.on('data', (c: Buffer) => out.write(c));
        res.on('end', () => resolve(res.statusCode ?? 0));
      }
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end(req.body);
  });
}

/** Takes `--flag value` options out of `args`; repeated flags accumulate. Returns the positionals and the flags. */
function parseFlags(args: string[]): { positionals: string[]; flags: Map<string, string[]> } {
  const positionals: string[] = [];
  const flags = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const m = /^(--?[A-Za-z][\w-]*)(?:=(.*))?$/.exec(a);
    if (!m) {
      positionals.push(a);
      continue;
    }
    const value = m[2] ?? args[++i];
    if (value === undefined) throw new Error(`flag ${m[1]} needs a value`);
    flags.set(m[1], [...(flags.get(m[1]) ?? []), value]);
  }
  return { positionals, flags };
}

const list = (v: string | undefined) => (v === undefined || v === '' ? [] : v.split(','));
const q = (pairs: Record<string, string | undefined>) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(pairs)) if (v !== undefined) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : '';
};

/**
 * Turns a `sprite-env` command line into the API request it stands for.
 * @throws Error with a usage message for an unknown command or a missing argument.
 */
export function requestOf(argv: string[]): ApiRequest {
  const [group, verb, ...rest] = argv;
  const { positionals, flags } = parseFlags(rest);
  const one = (f: string) => flags.get(f)?.at(-1);
  const name = positionals[0];
  const needName = () => {
    if (!name) throw new Error(`sprite-env ${group} ${verb}: missing service name`);
    return encodeURIComponent(name);
  };
  if (group === 'services') {
    switch (verb) {
      case 'list':
      case undefined:
        return { method: 'GET', path: '/v1/services' };
      case 'get':
        return { method: 'GET', path: `/v1/services/${needName()}` };
      case 'create': {
        const cmd = one('--cmd');
        const svc = needName();
        if (!cmd) throw new Error('sprite-env services create: --cmd is required');
        const env: Record<string, string> = {};
        for (const kv of flags.get('--env') ?? []) {
          const at = kv.indexOf('=');
          if (at <= 0) throw new Error(`sprite-env services create: --env wants K=V, got ${JSON.stringify(kv)}`);
          env[kv.slice(0, at)] = kv.slice(at + 1);
        }
        const port = one('--http-port');
        const body: Record<string, unknown> = { cmd, args: (flags.get('--args') ?? []).flatMap(list), needs: list(one('--needs')) };
        if (port !== undefined) body.http_port = Number(port);
        if (Object.keys(env).length > 0) body.env = env;
        if (one('--dir') !== undefined) body.dir = one('--dir');
        return { method: 'PUT', path: `/v1/services/${svc}${q({ duration: one('--duration') })}`, body: JSON.stringify(body) };
      }
      case 'start':
      case 'restart':
        return { method: 'POST', path: `/v1/services/${needName()}/${verb}${q({ duration: one('--duration') })}` };
      case 'stop':
        return { method: 'POST', path: `/v1/services/${needName()}/stop${q({ timeout: one('--timeout') })}` };
      case 'delete':
        return { method: 'DELETE', path: `/v1/services/${needName()}` };
      case 'logs':
        return { method: 'GET', path: `/v1/services/${needName()}/logs${q({ lines: one('--lines'), duration: one('--duration') })}` };
      default:
        break;
    }
  } else if (group === 'checkpoints') {
    if (verb === 'list' || verb === undefined) return { method: 'GET', path: '/v1/checkpoints' };
    if (verb === 'create') {
      const comment = one('--comment');
      return { method: 'POST', path: '/v1/checkpoint', body: JSON.stringify(comment === undefined ? {} : { comment }) };
    }
  } else if (group === 'curl') {
    // `sprite-env curl [-X M] [-d D] [-H 'K: V'] PATH`: verb is the first argument here.
    const { positionals: pos, flags: f } = parseFlags(argv.slice(1));
    const path = pos[0];
    if (!path) throw new Error('sprite-env curl: missing path');
    const headers: Record<string, string> = {};
    for (const h of f.get('-H') ?? []) {
      const at = h.indexOf(':');
      if (at > 0) headers[h.slice(0, at).trim()] = h.slice(at + 1).trim();
    }
    const data = f.get('-d')?.at(-1);
    return { method: f.get('-X')?.at(-1) ?? (data === undefined ? 'GET' : 'POST'), path: path.startsWith('/') ? path : `/${path}`, body: data, headers };
  }
  throw new Error(USAGE.trimEnd());
}

/**
 * The `sprite-env` command: runs `argv` against the API at `target` (default `/.sprite/api.sock`), writing to `out`
 * (default the process's stdout and stderr). Resolves with the exit code: 0 for a 2xx answer, 1 for any other status
 * or a connection failure, 2 for bad usage.
 */
export async function spriteEnvMain(argv: string[], target: ApiTarget = API_SOCKET_PATH, out: SpriteEnvOutput = process): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    out.stdout.write(USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  let req: ApiRequest;
  try {
    req = requestOf(argv);
  } catch (err) {
    out.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  try {
    const status = await send(req, target, out.stdout);
    if (status >= 200 && status < 300) return 0;
    out.stderr.write(`sprite-env: ${req.method} ${req.path}: HTTP ${status}\n`);
    return 1;
  } catch (err) {
    out.stderr.write(`sprite-env: cannot reach ${typeof target === 'string' ? target : API_SOCKET_PATH}: ${(err as Error).message}\n`);
    return 1;
  }
}
