/**
 * One import for a conformance test file: `const { target, call, sprites } = useConformance()` registers the
 * target's and the sprite fixture's hooks in the right order (sprites deleted before the emulator stops), and
 * re-exports the marks and wire clients. It adds no behaviour of its own.
 */
import { useTarget, type Target } from './target.ts';
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
  return { target, call, sprites };
}
