/**
 * The 415 answer of a REST operation whose body has the wrong (or no) `Content-Type`. Every operation with a body
 * takes JSON, except fs/write and HTTP exec, whose bodies are bytes whatever their type (http/raw-body.ts), so
 * the answer says what to send. It owns the wording only; the validator decides that the type is unsupported.
 * @see issue 16 (fresh-user finding: the validator's message read "unsupported media type undefined");
 * docs/wire-reference.md §2.4 (envelope)
 */
import type { IncomingMessage } from 'node:http';
import type { ApiErrorBody } from './errors.ts';

/**
 * The 415 body for `req`: `{"error":"invalid_request","message":"unsupported media type: …","errors":[…]}`, naming
 * the request's `Content-Type` when it has one (`text/plain`), or saying it has none, and the type a JSON body
 * needs (`application/json`).
 */
export function unsupportedMediaTypeBody(req: Pick<IncomingMessage, 'headers'>): ApiErrorBody {
  const type = req.headers['content-type'];
  const sent = type === undefined || type.trim() === '' ? 'the request has no Content-Type' : `the request's Content-Type is ${JSON.stringify(type)}`;
  const message = `unsupported media type: a JSON body needs Content-Type: application/json (${sent})`;
  return { error: 'invalid_request', message, errors: [message] };
}
