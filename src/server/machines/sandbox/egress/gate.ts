/**
 * The egress gate of one sandbox sprite: spritzer's side of the HTTP proxy (plain forward and
 * CONNECT) and the DNS resolver that the in-sprite agent listens for on the sprite's loopback (src/agent/egress.ts).
 * It owns the policy decision for each outbound name or address, the names each address was resolved from, and
 * the open connections (cut when a policy change blocks their name). It does not listen anywhere (connections
 * arrive as Duplexes from the agent) and does not store the policy (SpritePolicies does; it is pushed here).
 * @see docs/wire-reference.md §10, docs/sandbox.md "Egress"
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import dnsPacket from 'dns-packet';
import { defaultNetworkPolicy, evaluateNetworkPolicy, type NetworkPolicy } from '../../../core/network-policy.ts';
import { isAlwaysBlocked, systemNet, type EgressNet } from './net.ts';
import { ResolvedNames } from './resolved-names.ts';

/** Where the agent listens inside the sprite, and what processes there are told (env, `/etc/resolv.conf`). */
export const EGRESS_PROXY_PORT = 3128;
/** The resolver's UDP port on the sprite's loopback (the standard one: `/etc/resolv.conf` cannot name another). */
export const EGRESS_DNS_PORT = 53;
/** The loopback address both listen on. */
export const EGRESS_HOST = '127.0.0.1';

/**
 * The environment a sprite's processes get when the gate is on: the proxy for `http_proxy`/`https_proxy` (both
 * spellings: curl reads the lower-case `http_proxy` only, Python and Go read either) and `no_proxy` for loopback.
 * @see https://everything.curl.dev/usingcurl/proxies/env.html
 */
export const EGRESS_ENV: Readonly<Record<string, string>> = Object.freeze({
  http_proxy: `http://${EGRESS_HOST}:${EGRESS_PROXY_PORT}`,
  https_proxy: `http://${EGRESS_HOST}:${EGRESS_PROXY_PORT}`,
  HTTP_PROXY: `http://${EGRESS_HOST}:${EGRESS_PROXY_PORT}`,
  HTTPS_PROXY: `http://${EGRESS_HOST}:${EGRESS_PROXY_PORT}`,
  no_proxy: 'localhost,127.0.0.1,::1',
  NO_PROXY: 'localhost,127.0.0.1,::1',
});

/** `/etc/resolv.conf` inside a sprite with the gate on. */
export const EGRESS_RESOLV_CONF = `# spritzer egress gate (docs/sandbox.md)\nnameserver ${EGRESS_HOST}\noptions ndots:0\n`;

/** The most connections (tunnels and forwarded requests) one sprite may hold open through the gate (docs/limits.md). */
export const MAX_EGRESS_CONNECTIONS = 256;
/** Largest DNS message read from a sprite. */
const MAX_DNS_BYTES = 4096;
/** TTL of the answers the resolver gives (seconds). */
const ANSWER_TTL = 60;

/** A refusal or failure the proxy answers with `status` (403 policy, 502 upstream, 503 too many, 400 bad request). */
class GateError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** An open connection through the gate: what it reaches (re-checked on every policy change) and how to cut it. */
interface OpenConnection {
  host: string;
  cut(): void;
}

/** Options of {@link EgressGate}. */
export interface EgressGateOptions {
  /** The outside (default {@link systemNet}); tests map names to a loopback server. */
  net?: EgressNet;
  logger?: { debug(obj: object, msg?: string): void };
}

/**
 * One sprite's gate. Decision for a name: the sprite's network policy (`evaluateNetworkPolicy`: exact beats
 * `*.x` beats `*`, `include: defaults`; `{rules: []}` allows every name). For an IP literal: never a private,
 * loopback or reserved address (`isAlwaysBlocked`, also for addresses a name resolves to); otherwise, under a
 * policy with rules, only an address the resolver earlier gave for a name that the policy still allows.
 */
export class EgressGate {
  private policy: NetworkPolicy = defaultNetworkPolicy();
  /** address → the names it was resolved from (through DNS or the proxy), the most recent addresses only. */
  private readonly resolvedFrom = new ResolvedNames();
  private readonly open = new Set<OpenConnection>();
  private readonly server: http.Server;
  private readonly net: EgressNet;
  private closed = false;

  constructor(private readonly opts: EgressGateOptions = {}) {
    this.net = opts.net ?? systemNet;
    this.server = http.createServer((req, res) => void this.forward(req, res));
    this.server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.tunnel(req, socket, head));
    this.server.on('clientError', (_err, socket: Duplex) => socket.destroy());
  }

  /**
   * Puts `policy` in force; every open connection whose name (or, for an IP literal, every name it came from) the
   * new policy blocks is cut at once (both sides destroyed). @see docs/wire-reference.md §10.2
   */
  setPolicy(policy: NetworkPolicy): void {
    this.policy = policy;
    for (const c of [...this.open]) {
      if (this.refusal(c.host) !== null) {
        this.opts.logger?.debug({ host: c.host }, 'egress: connection cut by a policy change');
        c.cut();
      }
    }
  }

  /** The number of connections open through the gate (tests, diagnostics). */
  get openConnections(): number {
    return this.open.size;
  }

  /** Serves one proxy connection from the sprite (HTTP/1.1: absolute-URI requests and CONNECT). */
  serveProxy(conn: Duplex): void {
    if (this.closed) return void conn.destroy();
    conn.on('error', () => undefined);
    this.server.emit('connection', conn);
  }

  /**
   * Answers one DNS query from the sprite: reads the message until END, writes the answer and ENDs. Blocked names
   * get REFUSED; allowed A/AAAA questions the addresses of the outside resolver (NXDOMAIN when it has none,
   * SERVFAIL when it fails); other types an empty NOERROR. A message that does not parse is dropped (reset).
   * @see RFC 1035 §4.1.1
   */
  serveDns(conn: Duplex): void {
    if (this.closed) return void conn.destroy();
    const chunks: Buffer[] = [];
    let size = 0;
    conn.on('error', () => undefined);
    conn.on('data', (c: Buffer) => {
      size += c.byteLength;
      if (size > MAX_DNS_BYTES) conn.destroy();
      else chunks.push(c);
    });
    conn.on('end', () => {
      void this.answerDns(Buffer.concat(chunks)).then((reply) => (reply ? conn.end(reply) : conn.destroy()));
    });
  }

  /** Ends every open connection; later connections are refused. */
  close(): void {
    this.closed = true;
    for (const c of [...this.open]) c.cut();
  }

  /** Why `host` may not be reached now (null: it may). `host` is a name or an IP literal, canonical. */
  private refusal(host: string): string | null {
    if (isIP(host)) {
      if (isAlwaysBlocked(host)) return `${host} is a private, loopback or reserved address`;
      if (this.policy.rules.length === 0) return null;
      if (this.resolvedFrom.namesOf(host).some((n) => evaluateNetworkPolicy(this.policy, n) === 'allow')) return null;
      return `${host} was not resolved from a name the network policy allows`;
    }
    return evaluateNetworkPolicy(this.policy, host) === 'allow' ? null : `${host} is blocked by the network policy`;
  }

  /** Resolves `name` through the outside resolver and remembers which name each address came from. */
  private async resolve(name: string): Promise<string[]> {
    const addresses = await this.net.resolve(name);
    for (const a of addresses) this.resolvedFrom.remember(a, name);
    return addresses;
  }

  /** Checks `host` and opens a connection to it on `port` (first reachable public address). Throws a GateError. */
  private async dial(host: string, port: number): Promise<Duplex> {
    if (this.closed) throw new GateError(503, 'the egress gate is closed');
    if (this.open.size >= MAX_EGRESS_CONNECTIONS) throw new GateError(503, `more than ${MAX_EGRESS_CONNECTIONS} connections open through the egress gate`);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new GateError(400, `bad port ${port}`);
    const why = this.refusal(host);
    if (why) throw new GateError(403, why);
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else {
      try {
        addresses = await this.resolve(host);
      } catch (err) {
        throw new GateError(502, `cannot resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
    }
    const usable = addresses.filter((a) => !isAlwaysBlocked(a));
    if (usable.length === 0) throw new GateError(403, `${host} resolves only to private, loopback or reserved addresses`);
    let last: Error | undefined;
    for (const address of usable) {
      try {
        return await this.net.dial(address, port);
      } catch (err) {
        last = err as Error;
      }
    }
    throw new GateError(502, `cannot connect to ${host}:${port}: ${(last as NodeJS.ErrnoException)?.code ?? last?.message}`);
  }

  /** Tracks a connection until either side closes. */
  private track(host: string, sides: Duplex[]): void {
    const entry: OpenConnection = { host, cut: () => sides.forEach((s) => s.destroy()) };
    this.open.add(entry);
    for (const s of sides) s.once('close', () => this.open.delete(entry));
  }

  /** CONNECT host:port → `200 Connection Established` and a byte tunnel, or an error status and the end. */
  private async tunnel(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => undefined);
    const target = splitHostPort(req.url ?? '');
    let upstream: Duplex;
    try {
      if (!target) throw new GateError(400, `bad CONNECT target ${JSON.stringify(req.url)}`);
      upstream = await this.dial(target.host, target.port);
    } catch (err) {
      return refuseRaw(socket, err);
    }
    if (socket.destroyed) return void upstream.destroy();
    // Either side gone (an error, or the sprite's end reset by the agent) takes the other with it.
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
    upstream.once('close', () => socket.destroy());
    socket.once('close', () => upstream.destroy());
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.byteLength) upstream.write(head);
    this.track(target!.host, [socket, upstream]);
    socket.pipe(upstream);
    upstream.pipe(socket);
  }

  /** A plain-HTTP proxy request (`GET http://host/path`): forwarded, its answer streamed back. */
  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    let upstream: Duplex;
    try {
      try {
        url = new URL(req.url ?? '');
      } catch {
        throw new GateError(400, `not a proxy request: ${JSON.stringify(req.url)} (use an absolute http:// URL or CONNECT)`);
      }
      if (url.protocol !== 'http:') throw new GateError(400, `the proxy forwards http:// only (use CONNECT for ${url.protocol})`);
      upstream = await this.dial(canonicalHost(url.hostname), Number(url.port || 80));
    } catch (err) {
      const e = toGateError(err);
      res.writeHead(e.status, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
      return void res.end(`spritzer egress gate: ${e.message}\n`);
    }
    const headers = { ...req.headers };
    for (const h of ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive']) delete headers[h];
    const out = http.request({
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, connection: 'close' },
      createConnection: () => upstream as never,
    });
    this.track(canonicalHost(url.hostname), [upstream, req.socket]);
    upstream.on('error', () => undefined);
    req.socket.once('close', () => upstream.destroy());
    out.on('response', (up) => {
      const h = { ...up.headers };
      for (const k of ['connection', 'keep-alive', 'transfer-encoding']) delete h[k];
      res.writeHead(up.statusCode ?? 502, h);
      up.pipe(res);
    });
    out.on('error', (err) => {
      if (!res.headersSent) {
        res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
        res.end(`spritzer egress gate: ${err.message}\n`);
      } else res.destroy();
    });
    req.pipe(out);
  }

  /** Builds the answer to one DNS message, or null when it does not parse. */
  private async answerDns(query: Buffer): Promise<Buffer | null> {
    let packet: dnsPacket.Packet;
    try {
      packet = dnsPacket.decode(query);
    } catch {
      return null;
    }
    const question = packet.questions?.[0];
    const rd = (packet.flags ?? 0) & dnsPacket.RECURSION_DESIRED;
    const reply = (rcode: number, answers: dnsPacket.Answer[] = []) =>
      dnsPacket.encode({
        type: 'response',
        id: packet.id,
        flags: rd | dnsPacket.RECURSION_AVAILABLE | rcode,
        questions: packet.questions ?? [],
        answers,
      });
    if (!question) return reply(RCODE.FORMERR);
    const name = canonicalHost(question.name);
    if (isIP(name) || this.refusal(name) !== null) return reply(RCODE.REFUSED);
    if (question.type !== 'A' && question.type !== 'AAAA') return reply(RCODE.NOERROR);
    let addresses: string[];
    try {
      addresses = await this.resolve(name);
    } catch (err) {
      return reply((err as NodeJS.ErrnoException).code === 'ENOTFOUND' ? RCODE.NXDOMAIN : RCODE.SERVFAIL);
    }
    const family = question.type === 'A' ? 4 : 6;
    const answers = addresses
      .filter((a) => isIP(a) === family)
      .map((data) => ({ type: question.type as 'A' | 'AAAA', name: question.name, class: 'IN' as const, ttl: ANSWER_TTL, data }));
    return reply(RCODE.NOERROR, answers);
  }
}

/** DNS response codes (RFC 1035 §4.1.1). */
export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

function toGateError(err: unknown): GateError {
  return err instanceof GateError ? err : new GateError(502, (err as Error)?.message ?? String(err));
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 403: 'Forbidden', 502: 'Bad Gateway', 503: 'Service Unavailable' };

/** Answers a CONNECT with an error status on the raw connection, then ends it. */
function refuseRaw(socket: Duplex, err: unknown): void {
  const e = toGateError(err);
  const body = `spritzer egress gate: ${e.message}\n`;
  socket.end(
    `HTTP/1.1 ${e.status} ${REASONS[e.status] ?? 'Error'}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** `host:port` or `[v6]:port` → canonical host and port; null when malformed. */
export function splitHostPort(target: string): { host: string; port: number } | null {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(target);
  if (!m) return null;
  return { host: canonicalHost(m[1] ?? m[2]!), port: Number(m[3]) };
}

/** Lower case, no brackets, no trailing dot. */
function canonicalHost(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
}
