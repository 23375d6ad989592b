/**
 * Requests a sprite's code may send to its own in-sprite API (`/.sprite/api.sock`) trying to reach another sprite:
 * a `Host` (or forwarding header) naming the other sprite's URL, paths that leave `/v1/sprites/<own>/` after
 * decoding or normalising, any method, an upgrade. One corpus for every engine: raw bytes through a Python client
 * on the agent-backed engines, `sprite-env curl` on the in-memory ones. Test support only.
 */

/** One hostile request: what is sent, as the sprite's code would send it. */
export interface InSpriteAttack {
  label: string;
  method: string;
  /** The request-target, sent byte for byte (no normalising by the client). */
  target: string;
  headers: Record<string, string>;
}

/** The text a victim sprite's HTTP service answers to every request: seeing it anywhere in an attack's reply is a breach. */
export const VICTIM_SECRET = 'victim-secret-7c1f';

/** The service the victim runs on port 8080 (agent-backed engines): answers `VICTIM_SECRET` to any method and path. */
export const VICTIM_SERVER_PY = `import http.server as h
class H(h.BaseHTTPRequestHandler):
    def answer(s):
        b = b'${VICTIM_SECRET}'
        s.send_response(200); s.send_header('Content-Length', str(len(b))); s.end_headers(); s.wfile.write(b)
    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = answer
    def log_message(s, *a): pass
h.HTTPServer(('127.0.0.1', 8080), H).serve_forever()
`;

/** The attacks on `victim` (its name, as its sprite URL host `<victim>.localhost` and in traversal paths). */
export function inSpriteAttacks(victim: string): InSpriteAttack[] {
  const host = (h: string) => ({ Host: h });
  const vh = `${victim}.localhost`;
  const out: InSpriteAttack[] = [];
  for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
    out.push({ label: `${method} with Host: ${vh}`, method, target: '/v1/services', headers: host(vh) });
    out.push({ label: `${method} /v1/checkpoint with Host: ${vh}:8080`, method, target: '/v1/checkpoint', headers: host(`${vh}:8080`) });
  }
  out.push(
    { label: 'Host with trailing path suffix', method: 'GET', target: '/v1/tasks/anything/at/all?x=1', headers: host(vh) },
    { label: 'X-Forwarded-Host', method: 'GET', target: '/v1/services', headers: { 'X-Forwarded-Host': vh } },
    { label: 'Forwarded host', method: 'GET', target: '/v1/services', headers: { Forwarded: `host=${vh}` } },
    { label: 'upgrade with Host', method: 'GET', target: '/v1/services', headers: { ...host(vh), Upgrade: 'websocket', Connection: 'Upgrade', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version': '13' } },
    { label: 'dot-dot out of services', method: 'GET', target: `/v1/services/../../${victim}/services`, headers: {} },
    { label: 'dot-dot to the victim’s exec', method: 'POST', target: `/v1/services/../../${victim}/exec?cmd=id`, headers: {} },
    { label: 'encoded dot-dot', method: 'GET', target: `/v1/services/%2e%2e/%2E%2E/${victim}/services`, headers: {} },
    { label: 'encoded slashes', method: 'GET', target: `/v1/services/..%2f..%2f${victim}%2fservices`, headers: {} },
    { label: 'backslashes', method: 'GET', target: `/v1/services/..\\..\\${victim}\\services`, headers: {} },
    { label: 'double slash', method: 'GET', target: `/v1/checkpoints//../../${victim}/checkpoints`, headers: {} },
    { label: 'delete through traversal', method: 'DELETE', target: `/v1/services/../../${victim}/services/keep`, headers: {} },
    { label: 'absolute-form target', method: 'GET', target: `http://${vh}/v1/services`, headers: host(vh) },
    { label: 'absolute-form API target', method: 'GET', target: `http://127.0.0.1/v1/sprites/${victim}/services`, headers: {} },
    { label: 'public path of the victim', method: 'GET', target: `/v1/sprites/${victim}/services`, headers: {} },
    { label: 'a bearer token of our own', method: 'GET', target: `/v1/sprites/${victim}/services`, headers: { Authorization: 'Bearer anything' } },
  );
  return out;
}

/** The raw HTTP/1.1 request of an attack (with `Connection: close` unless it upgrades, and a body for POST/PUT). */
export function rawRequestOf(a: InSpriteAttack): string {
  const body = a.method === 'POST' || a.method === 'PUT' ? '{}' : '';
  const headers: Record<string, string> = { Host: 'sprite', Connection: 'close', ...a.headers };
  if (body) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': String(body.length) });
  const lines = [`${a.method} ${a.target} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/**
 * A `python3 -c` program that sends argv[1] byte for byte to `/.sprite/api.sock` and prints what comes back until
 * the server closes (or 3 s pass), so paths reach the API exactly as the sprite's code wrote them.
 */
export const RAW_API_CLIENT_PY = `import socket, sys
s = socket.socket(socket.AF_UNIX); s.settimeout(3); s.connect('/.sprite/api.sock')
s.sendall(sys.argv[1].encode('latin-1'))
data = b''
try:
    while True:
        c = s.recv(65536)
        if not c: break
        data += c
except socket.timeout:
    pass
sys.stdout.write(data.decode('latin-1'))
`;

/** The `sprite-env curl` argv of an attack (the in-memory engines' route to the in-sprite API). */
export function spriteEnvArgvOf(a: InSpriteAttack): string[] {
  const argv = ['sprite-env', 'curl', '-X', a.method];
  for (const [k, v] of Object.entries(a.headers)) argv.push('-H', `${k}: ${v}`);
  if (a.method === 'POST' || a.method === 'PUT') argv.push('-d', '{}');
  argv.push(a.target);
  return argv;
}
