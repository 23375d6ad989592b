/**
 * `HEAD` on any GET route answers like GET without a body (RFC 9110 §9.3.2). The OpenAPI validator only knows
 * the methods the spec lists, so a HEAD it has no operation for would be a 405; this middleware, placed before
 * the validator, runs such a request as GET. Node already dropped the body of a HEAD response when it made the
 * response object, so the GET handler's headers (Content-Length included) go out and its body does not. Paths
 * with their own `head` operation in the spec (`probeExec`) keep it. It owns only that method rewrite.
 */
import { loadOpenApiDocument } from './spec.ts';
import type { RequestHandler } from 'express';

/** A regular expression matching the concrete paths of an OpenAPI path template (`{name}` = one segment). */
function templateToRegExp(template: string): RegExp {
  const parts = template.split(/\{[^}/]+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}/?$`);
}

/**
 * The middleware for the spec at `specPath` (spec/openapi.yaml): a HEAD request whose path has no `head`
 * operation in the spec continues as GET. Matching is case-sensitive, like the app's routing. Throws at build
 * time if the spec cannot be read.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-9.3.2
 */
export function headAsGet(specPath: string): RequestHandler {
  const doc = loadOpenApiDocument(specPath) as { paths?: Record<string, Record<string, unknown> | null> };
  const ownHead = Object.entries(doc.paths ?? {})
    .filter(([, ops]) => ops !== null && typeof ops === 'object' && 'head' in ops)
    .map(([template]) => templateToRegExp(template));
  return (req, _res, next) => {
    if (req.method === 'HEAD' && !ownHead.some((re) => re.test(req.path))) req.method = 'GET';
    next();
  };
}
