/**
 * `curl-sprite-api`, production's older wrapper of curl for the in-sprite API (superfly/sprites-go
 * `base-env/system/.sprite/bin/curl-sprite-api`, still named on docs.sprites.dev): `curl-sprite-api [curl options]
 * /path` is `curl --unix-socket /.sprite/api.sock -H 'Content-Type: application/json' … http://sprite/path`. With
 * curl in the sprite the installed script runs curl itself (src/protocol/sprite-tree.ts `curlSpriteApiScript`);
 * this module is its help and the request where there is no curl: without curl in a sandbox or container sprite,
 * and on the in-memory engines (src/server/machines/memory/sprite-env-command.ts). There it understands the
 * options a call of the API needs (`-X`, `-d`, `-H`, `-s`, `-S`, `-f`, `-i`, `--url`) and refuses the rest loudly.
 * @see docs/wire-reference.md §12
 */
import { API_SOCKET_PATH } from '../protocol/sprite-tree.ts';
import { openRequest, type ApiTarget, type SpriteEnvOutput } from './sprite-env.ts';
import { apiPathOf, type ApiRequest } from './sprite-env-commands.ts';

/** `curl-sprite-api --help`: spritzer's own text. */
export const CURL_SPRITE_API_HELP = `usage: curl-sprite-api [curl options] <path>

curl on this sprite's API: runs curl --unix-socket /.sprite/api.sock -H 'Content-Type: application/json' with
<path> sent as http://sprite<path> (a full http:// URL is sent as given). The older name of 'sprite-env curl',
kept for the scripts that use it; 'sprite-env --help' lists the commands built on the same API.

examples:
  curl-sprite-api /v1/services
  curl-sprite-api -X PUT '/v1/services/web?duration=3s' -d '{"cmd":"python3","args":["-m","http.server","8080"],"http_port":8080}'
  curl-sprite-api -X POST /v1/services/signal -d '{"name":"web","signal":"HUP"}'
  curl-sprite-api -X DELETE /v1/services/web
  curl-sprite-api -X POST /v1/tasks -d '{"name":"job","expire":"30m"}'

paths: /v1/services[/NAME[/start|/stop|/restart|/logs]], /v1/services/signal, /v1/checkpoint,
/v1/checkpoints[/ID[/restore]], /v1/tasks[/NAME], /v1/sprite, /policy/network
(/.sprite/docs/agent-context.md, "The internal API").

Where the sprite has no curl (and on spritzer's in-memory engines) only -X, -d, -H, -s, -S, -f, -i and --url are
understood; any other option is refused.
`;

/** One call of the fallback: the request and how curl would print its answer. */
export interface CurlCall {
  req: ApiRequest;
  /** `-s`: no error messages (unless `-S`). */
  silent: boolean;
  /** `-S`: error messages even with `-s`. */
  showError: boolean;
  /** `-f`: an HTTP status from 400 is exit 22 and no body. */
  fail: boolean;
  /** `-i`: the status line and headers before the body. */
  include: boolean;
}

/** A command line the fallback will not run (exit 2, the message on stderr). */
export class CurlRefusal extends Error {}

const SWITCHES: Record<string, keyof Omit<CurlCall, 'req'>> = {
  '-s': 'silent', '--silent': 'silent', '-S': 'showError', '--show-error': 'showError',
  '-f': 'fail', '--fail': 'fail', '-i': 'include', '--include': 'include',
};
const VALUED: Record<string, 'method' | 'data' | 'raw' | 'header' | 'url'> = {
  '-X': 'method', '--request': 'method', '-d': 'data', '--data': 'data', '--data-binary': 'data', '--data-ascii': 'data',
  '--data-raw': 'raw', '-H': 'header', '--header': 'header', '--url': 'url',
};

/**
 * The call a command line stands for (help aside): the first argument that is a `/path` or an `http(s)://` URL is
 * the target (`http://sprite` when none), the method `-X` or POST with data, GET without; `-d` values joined with
 * `&` as curl does; `Content-Type: application/json` unless a `-H` names one. `hint` ends a refusal's message.
 * @throws CurlRefusal for an option outside the list above, data read from a file (`-d @f`), a second URL.
 */
export function curlCallOf(argv: string[], hint: string): CurlCall {
  const refuse = (what: string) => new CurlRefusal(`curl-sprite-api: ${what} is not available without curl; ${hint}`);
  const call: CurlCall = { req: { method: '', path: '/', headers: {} }, silent: false, showError: false, fail: false, include: false };
  let target: string | undefined;
  let method: string | undefined;
  const data: string[] = [];
  const headers: Record<string, string> = {};
  const take = (kind: string, value: string, name: string) => {
    if (kind === 'method') method = value;
    else if (kind === 'data' || kind === 'raw') {
      if (kind === 'data' && value.startsWith('@')) throw refuse(`${name} @FILE (data from a file)`);
      data.push(value);
    } else if (kind === 'header') {
      const at = value.indexOf(':');
      if (at <= 0) throw refuse(`the header ${JSON.stringify(value)}`);
      headers[value.slice(0, at).trim()] = value.slice(at + 1).trim();
    } else {
      if (target !== undefined) throw refuse(`a second URL (${value})`);
      target = value;
    }
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('-') || a === '-') {
      if (target !== undefined) throw refuse(`a second URL (${a})`);
      target = a;
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (SWITCHES[name] && eq < 0) {
      call[SWITCHES[name]] = true;
      continue;
    }
    if (VALUED[name]) {
      const value = eq > 0 ? a.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new CurlRefusal(`curl-sprite-api: option ${name}: requires parameter`);
      take(VALUED[name], value, name);
      continue;
    }
    if (!a.startsWith('--')) {
      // A cluster of short switches (`-sS`, `-fsS`), its last letter possibly one taking a value (`-XPOST`, `-sX POST`).
      for (let k = 1; k < a.length; k++) {
        const flag = `-${a[k]}`;
        if (SWITCHES[flag]) call[SWITCHES[flag]] = true;
        else if (VALUED[flag]) {
          const value = k + 1 < a.length ? a.slice(k + 1) : argv[++i];
          if (value === undefined) throw new CurlRefusal(`curl-sprite-api: option ${flag}: requires parameter`);
          take(VALUED[flag], value, flag);
          break;
        } else throw refuse(`the option ${flag}`);
      }
      continue;
    }
    throw refuse(`the option ${name}`);
  }
  if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  const body = data.length > 0 ? data.join('&') : undefined;
  call.req = { method: method ?? (body === undefined ? 'GET' : 'POST'), path: target === undefined ? '/' : apiPathOf(target), body, headers };
  return call;
}

/**
 * The `curl-sprite-api` command where curl is absent: `--help`, `-h` or no argument prints the help (exit 0);
 * otherwise the call (`curlCallOf`) is sent to `target` and answered as curl would: the body as it comes on stdout
 * (with `-i` the status line and headers first), exit 0 for any HTTP answer, 22 with `-f` from status 400
 * (`curl: (22) The requested URL returned error: N`), 7 when the API cannot be reached, 2 for a refused option.
 * `hint` says what to do instead of a refused option.
 * @deviation No progress meter on stderr (curl draws one when stdout is not a terminal and `-s` is absent).
 */
export async function curlSpriteApiMain(argv: string[], target: ApiTarget = API_SOCKET_PATH, out: SpriteEnvOutput = process, hint = "install curl in the sprite, or use 'sprite-env curl'"): Promise<number> {
  if (argv.length === 0 || argv.some((a) => a === '--help' || a === '-h')) {
    out.stdout.write(CURL_SPRITE_API_HELP);
    return 0;
  }
  let call: CurlCall;
  try {
    call = curlCallOf(argv, hint);
  } catch (err) {
    if (!(err instanceof CurlRefusal)) throw err;
    out.stderr.write(`${err.message}\n`);
    return 2;
  }
  const loud = !call.silent || call.showError;
  try {
    const res = await openRequest(call.req, target);
    const status = res.statusCode ?? 0;
    if (call.fail && status >= 400) {
      res.resume();
      if (loud) out.stderr.write(`curl: (22) The requested URL returned error: ${status}\n`);
      return 22;
    }
    if (call.include) {
      const lines = [`HTTP/${res.httpVersion} ${status} ${res.statusMessage ?? ''}`.trimEnd()];
      for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
      out.stdout.write(`${lines.join('\r\n')}\r\n\r\n`);
    }
    await new Promise<void>((resolve, reject) => {
      res.on('data', (c: Buffer) => out.stdout.write(c));
      res.on('end', () => resolve());
      res.on('error', reject);
    });
    return 0;
  } catch (err) {
    if (loud) out.stderr.write(`curl-sprite-api: cannot reach ${typeof target === 'string' ? target : API_SOCKET_PATH}: ${(err as Error).message}\n`);
    return 7;
  }
}
