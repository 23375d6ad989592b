/**
 * Id sources for the model. Sprites get server ids `sprite-<uuid>` (docs/wire-reference.md §3.1); tests inject
 * `SequentialIds` so ids are predictable. It owns nothing else.
 */
import { randomUUID } from 'node:crypto';

/** Produces server ids. */
export interface IdSource {
  /** A new sprite id, `sprite-<uuid>`. */
  spriteId(): string;
  /** A new opaque token string (tokens API). */
  token(): string;
}

/** Random ids (production). */
export class RandomIds implements IdSource {
  spriteId(): string {
    return `sprite-${randomUUID()}`;
  }
  token(): string {
    return `spritzer/${randomUUID().replace(/-/g, '')}`;
  }
}

/** Predictable ids for tests: `sprite-00000000-0000-4000-8000-000000000001`, … */
export class SequentialIds implements IdSource {
  private n = 0;
  spriteId(): string {
    this.n += 1;
    return `sprite-00000000-0000-4000-8000-${String(this.n).padStart(12, '0')}`;
  }
  token(): string {
    this.n += 1;
    return `spritzer/token-${this.n}`;
  }
}
