/**
 * Authentication (sprites-wire.md §2.1): `Authorization: Bearer <token>` on every REST call and WebSocket
 * upgrade; `FlyV1 <macaroon>` on token minting. With `--token` set, that token and every token minted through
 * `createToken` pass, and minting needs `FlyV1 <that token>` (spritzer cannot check a real Fly macaroon, so the
 * configured secret stands in for one); without `--token` any non-empty credential does. One object serves REST
 * and the upgrade router.
 */

/** The 401 body. @deviation the public 401 body is UNCONFIRMED (§17); we use the JSON envelope. */
export const UNAUTHORIZED = { error: 'unauthorized', message: 'Missing or invalid authentication' } as const;

/** The tokens a server accepts. */
export class Credentials {
  private readonly minted = new Set<string>();

  /** `required`: the `--token` value; when undefined any non-empty bearer token is accepted. */
  constructor(private readonly required: string | undefined) {}

  /** Records a token minted by `createToken` so it authenticates later calls (§3.9). */
  mint(token: string): string {
    this.minted.add(token);
    return token;
  }

  /** True when the Authorization header is acceptable for this request. */
  accepts(header: string | undefined, scheme: 'Bearer' | 'FlyV1' = 'Bearer'): boolean {
    if (!header) return false;
    const match = /^(\S+)\s+(.+)$/.exec(header.trim());
    if (!match || match[1].toLowerCase() !== scheme.toLowerCase()) return false;
    const credential = match[2].trim();
    if (!credential) return false;
    if (this.required === undefined || credential === this.required) return true;
    return scheme === 'Bearer' && this.minted.has(credential);
  }
}
