/**
 * The 415 answer of a REST operation whose body has the wrong (or no) `Content-Type`: every body is JSON except
 * fs/write's and HTTP exec's (bytes whatever their type, http/raw-body.ts), so the answer says what to send. It owns
 * the wording and its envelope type (http/errors.ts imports it one way); the validator decides that the type is
 * unsupported, whose own message read "unsupported media type undefined". @see docs/wire-reference.md §2.4
 */
import type { IncomingMessage } from 'node:http';

/** The 415 envelope: `error`, a human `message`, and the same text as the one item of `errors`. */
export type UnsupportedMediaTypeBody = { error: 'invalid_request'; message: string; errors: string[] };

/**
 * The 415 body for `req`: `{"error":"invalid_request","message":"unsupported media type: …","errors":[…]}`, naming
 * the request's `Content-Type` when it has one (`text/plain`), or saying it has none, and the type a JSON body
 * needs (`application/json`).
 */
export function unsupportedMediaTypeBody(req: Pick<IncomingMessage, 'headers'>): UnsupportedMediaTypeBody {
  const type = req.headers['content-type'];
  const sent = type === undefined || type.trim() === '' ? 'the request has no Content-Type' : `the request's Content-Type is ${JSON.stringify(type)}`;
  const message = `unsupported media type: a JSON body needs Content-Type: application/json (${sent})`;
  return { error: 'invalid_request', message, errors: [message] };
}
