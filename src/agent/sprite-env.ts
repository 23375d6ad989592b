/**
 * `sprite-env`, the command inside a sprite that wraps the in-sprite API on `/.sprite/api.sock` (docs/wire-reference.md
 * §12): `info`, `version`, `services list|get|create|delete|start|stop|restart|signal|logs`,
 * `checkpoints list|get|create|restore`, `curl`, and `--help`/`-h` on every group and command (the commands production's
 * docs name: superfly/skills `references/cli.md`, docs.sprites.dev concepts/services). It owns sending a command's
 * request and printing the answer (the command table, parsing and help texts: sprite-env-commands.ts); the API
 * itself is answered by spritzer through the agent (api-socket.ts) or the in-memory engines' connection. Bodies are printed as the API sends them (JSON indented, NDJSON line by line as it
 * streams, text as is); `info` prints one line of JSON.
 * @see docs/wire-reference.md §9, §12
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { API_SOCKET_PATH } from '../protocol/sprite-tree.ts';
import { commandOf, UsageError, type ApiRequest, type SpriteEnvCommand } from './sprite-env-commands.ts';

/** Where `sprite-env` reaches the API: a unix socket path, or a function opening one connection (in-memory engines). */
export type ApiTarget = string | (() => Duplex);

/** Where `sprite-env` writes: stdout takes the answer as it arrives, stderr the failures. */
export interface SpriteEnvOutput {
  stdout: { write(chunk: string | Uint8Array): unknown };
  stderr: { write(chunk: string): unknown };
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

/**
 * The `info` line for the sprite `GET /v1/sprite` answered (the public API's sprite object) and the `Sprite-Version`
 * of that answer: `{"sprite_name","sprite_id","organization","sprite_url","version"}`.
 * @deviation Production's key names other than `sprite_url` (which scripts read) are UNCONFIRMED.
 */
export function infoOf(sprite: Readonly<Record<string, unknown>>, version: string): string {
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
