/**
 * Which browser pages may act on spritzer's API: a WebSocket upgrade or a state-changing REST call (any method but
 * GET, HEAD, OPTIONS) that a browser sends from a page of another origin — a sprite's own port or host, any other
 * local site — is refused, whatever the token mode. Clients that are not browsers send no `Origin` and are not
 * affected (the SDKs). It owns the decision only; the REST layer (app.ts) and the upgrade router answer it.
 */
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { ApiErrorBody } from './errors.ts';

/** Methods that change nothing, which the check leaves alone (no CORS header lets another origin read them). */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Options of {@link OriginCheck}. */
export interface OriginCheckOptions {
  /** Spritzer's own base URL once it listens (e.g. `http://127.0.0.1:4290`), read at each check. */
  localBase: () => string;
  /** `--public-url`: its origin is spritzer's own too. */
  publicUrl?: string;
  /** `--allow-origin`: more origins allowed (`*`: any). */
  allow?: readonly string[];
}

/**
 * Decides whether a request comes from a page of spritzer's own origin. Allowed: no `Origin` header and no
 * `Sec-Fetch-Site` saying `cross-site`/`same-site` (a non-browser client, or a browser on spritzer's own page);
 * an `Origin` that is the local base with host `127.0.0.1`, `localhost` or `[::1]`, the public URL's, or one of
 * `--allow-origin`; an `Origin` whose host is the request's own `Host` when that Host is an IP address or
 * `localhost` (spritzer reached at another address, e.g. a published container port; a name an attacker's DNS
 * could rebind to this host is never taken on its word). Everything else, `Origin: null` included, is refused.
 * @deviation whether the real API checks `Origin` is not known; it never runs without a token (docs/fidelity.md).
 */
export class OriginCheck {
  private readonly anyOrigin: boolean;
  private readonly allowed: ReadonlySet<string>;

  constructor(private readonly opts: OriginCheckOptions) {
    this.anyOrigin = (opts.allow ?? []).includes('*');
    const fixed = (opts.allow ?? []).filter((o) => o !== '*').map(normalOrigin);
    if (opts.publicUrl) fixed.push(normalOrigin(opts.publicUrl));
    this.allowed = new Set(fixed);
  }

  /** The refusal body for `req` (answered 403), or undefined when it may go on. */
  refusal(req: Pick<IncomingMessage, 'headers'>): ApiErrorBody | undefined {
    if (this.anyOrigin) return undefined;
    const origin = req.headers.origin;
    if (origin === undefined) {
      const site = req.headers['sec-fetch-site'];
      if (site !== 'cross-site' && site !== 'same-site') return undefined;
      return { error: 'forbidden', message: `a ${site} browser request may not act on the API; allow its origin with --allow-origin` };
    }
    if (this.isOwn(origin, req.headers.host)) return undefined;
    return { error: 'forbidden', message: `Origin ${origin} is not spritzer's own; a page of another origin may not act on the API (allow it with --allow-origin)` };
  }

  private isOwn(origin: string, host: string | undefined): boolean {
    let o: URL;
    try {
      o = new URL(origin);
    } catch {
      return false;
    }
    if (o.origin === 'null' || o.origin !== origin.toLowerCase()) return false;
    if (this.allowed.has(o.origin)) return true;
    const base = new URL(this.opts.localBase());
    for (const name of [base.hostname, '127.0.0.1', 'localhost', '[::1]']) {
      if (o.protocol === base.protocol && o.hostname === name && o.port === base.port) return true;
    }
    if (host === undefined || o.host !== host.toLowerCase()) return false;
    const hostname = o.hostname.replace(/^\[(.*)\]$/, '$1');
    return isIP(hostname) !== 0 || hostname === 'localhost';
  }
}

/** The origin (`scheme://host[:port]`) of a URL or origin text; throws on one that is not a URL. */
export function normalOrigin(text: string): string {
  const origin = new URL(text).origin;
  if (origin === 'null') throw new Error(`not an http(s) origin: ${JSON.stringify(text)}`);
  return origin;
}
