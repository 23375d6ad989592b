/**
 * Test helpers for model unit tests: the `ModelError` kind or `VfsError` code a call throws; a memory machine over a given VFS; a factory
 * that is another one with some members replaced.
 */
import { ModelError } from '../../src/server/core/errors.ts';
import { MemoryMachine } from '../../src/server/machines/memory/machine.ts';
import { SystemClock } from '../../src/server/core/clock.ts';
import type { ExecEngine, SpriteContext } from '../../src/server/machines/memory/engine.ts';
import { VfsError, type MachineFactory } from '../../src/server/machines/port.ts';

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

/** The POSIX `code` of the VfsError `fn` throws, `undefined` when it returns; other errors are rethrown. */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    if (e instanceof VfsError) return e.code;
    throw e;
  }
}

/** The `kind` of the ModelError the promise of `fn` rejects with, `undefined` when it resolves; other errors are rethrown. */
export async function kindOfAsync(fn: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await fn();
    return undefined;
  } catch (e) {
    if (e instanceof ModelError) return e.kind;
    throw e;
  }
}

/** A memory machine that runs `engine` over the test's own sprite context (its VFS and pid counter). */
export function testMachine(engine: ExecEngine, sprite: SpriteContext): MemoryMachine {
  return new MemoryMachine({ name: sprite.name, id: `sprite-${sprite.name}` }, engine, new SystemClock(), {
    vfs: sprite.vfs,
    allocatePid: sprite.allocatePid,
  });
}

/** `inner` with the members of `over` in place of its own; every other member is `inner`'s. */
export function factoryWith(inner: MachineFactory, over: Partial<MachineFactory>): MachineFactory {
  return {
    get engine() {
      return inner.engine;
    },
    get snapshotMode() {
      return inner.snapshotMode;
    },
    get persistence() {
      return inner.persistence;
    },
    create: (spec) => inner.create(spec),
    close: () => inner.close(),
    warm: () => inner.warm(),
    adoptExisting: () => inner.adoptExisting(),
    detach: () => inner.detach(),
    ...over,
  };
}
