/** Test helper for model unit tests: the `ModelError` kind a call throws. */
import { ModelError } from '../../src/server/model/errors.ts';

/** The `kind` of the ModelError `fn` throws, `undefined` when it returns; other errors are rethrown. */
export function kindOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    if (e instanceof ModelError) return e.kind;
    throw e;
  }
}
