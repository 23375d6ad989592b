/**
 * One import for a conformance test file: `const { target, call, sprites } = useConformance()` registers the
 * target's and the sprite fixture's hooks in the right order (sprites deleted before the emulator stops) and a
 * per-test check that no WebSocket frame broke the spec, and re-exports the marks and wire clients.
 */
import { afterEach } from 'vitest';
import { useTarget, type Target } from './target.ts';
import { takeViolations } from './ws.ts';
import { httpClient, type Call } from './http.ts';
import { useSprites, type SpriteFixture } from './sprites.ts';

export { verified, emulatorOnly } from './marks.ts';
export { IS_REMOTE } from './target.ts';
export type { Target } from './target.ts';
export * from './ws.ts';
export type { Call, WireResponse } from './http.ts';

/** The per-file context of a conformance test file. */
export interface Conformance {
  target: () => Target;
  call: Call;
  sprites: SpriteFixture;
}

/** Registers the hooks of a conformance test file and returns its context. */
export function useConformance(): Conformance {
  const target = useTarget();
  const call = httpClient(target);
  const sprites = useSprites(call);
  afterEach(() => {
    const violations = takeViolations();
    if (violations.length) throw new Error(`WebSocket frames that do not match spec/asyncapi.yaml:\n${violations.map((v) => v.message).join('\n')}`);
  });
  return { target, call, sprites };
}
