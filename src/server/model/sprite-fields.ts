/**
 * Size bounds of the free-form fields a client stores on a sprite (`labels`, `config`, `environment`), checked on
 * create and update before anything is stored, so that no sprite can make `GET /v1/sprites` answer hundreds of
 * megabytes. It checks sizes only; types and shapes are the spec validator's (spec/openapi.yaml), names the model's.
 */
import { DEFAULT_LIMITS, type Limits } from '../core/limits.ts';
import { ModelError } from '../core/errors.ts';

/** The limits `checkSpriteFields` applies. */
export type SpriteFieldLimits = Pick<Limits, 'labelsMax' | 'labelMaxLength' | 'configMaxBytes' | 'environmentMaxBytes'>;

/**
 * Throws ModelError `invalid_request` (400 `{"error":"invalid_request","message":…,"errors":[…]}`) when a field
 * present in `input` is over its limit: more than `labelsMax` (64) labels, a label longer than `labelMaxLength`
 * (128) characters, `config` over `configMaxBytes` (4 KiB) or `environment` over `environmentMaxBytes` (64 KiB)
 * as UTF-8 JSON. Absent fields pass. Cost: linear in the size of the input (one serialisation, stopped early for
 * labels).
 * @deviation real Sprites' limits on these fields are unknown (docs/wire-reference.md §3.2, §17); docs/limits.md.
 */
export function checkSpriteFields(
  input: { labels?: unknown; config?: unknown; environment?: unknown },
  limits: SpriteFieldLimits = DEFAULT_LIMITS,
): void {
  const refuse = (message: string): never => {
    throw new ModelError('invalid_request', message, { errors: [message] });
  };
  const { labels, config, environment } = input;
  if (Array.isArray(labels)) {
    if (labels.length > limits.labelsMax) refuse(`too many labels: ${labels.length} (at most ${limits.labelsMax})`);
    const long = labels.findIndex((l) => typeof l === 'string' && l.length > limits.labelMaxLength);
    if (long >= 0) refuse(`label ${long} is longer than ${limits.labelMaxLength} characters`);
  }
  const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  if (config !== undefined && bytesOf(config) > limits.configMaxBytes) {
    refuse(`config is larger than ${limits.configMaxBytes} bytes as JSON`);
  }
  if (environment !== undefined && bytesOf(environment) > limits.environmentMaxBytes) {
    refuse(`environment is larger than ${limits.environmentMaxBytes} bytes as JSON`);
  }
}
