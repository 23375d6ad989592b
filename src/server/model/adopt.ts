/**
 * Adoption at start: the machines an earlier spritzer left running (the container engine's labelled containers,
 * `MachineFactory.adoptExisting`) become sprites of the model again, with the fields their machine kept
 * (`Machine.remember`). It owns that rebuild only; finding and re-attaching the machines is the engine's, and the
 * `--data-dir` store (src/server/store) is a separate path for the in-memory and sandbox engines.
 * @see docs/container.md "Restarts"
 */
import type { Logger } from 'pino';
import { Sprite, SPRITE_NAME_PATTERN, type SpritesModel } from './sprites.ts';

/**
 * Asks the factory for what it can adopt and puts each machine back as a sprite (name, id, creation time,
 * labels, url settings, config, environment). A machine whose name is not a valid sprite name or is taken
 * already is destroyed, with a warning. Resolves with the number adopted (0 for engines that adopt nothing).
 * @deviation checkpoints, services and policies of an adopted sprite are not restored (docs/fidelity.md
 *   "Container engine: restart of spritzer").
 */
export async function adoptMachines(model: SpritesModel, logger: Pick<Logger, 'info' | 'warn'>): Promise<number> {
  const { clock, organization, limits } = model.deps;
  // The model's factory: what it adopts is served by the in-sprite API like a sprite created now.
  const machines = model.deps.machines;
  let adopted = 0;
  for (const found of await machines.adoptExisting()) {
    const { spec, record, machine } = found;
    try {
      if (!SPRITE_NAME_PATTERN.test(spec.name)) throw new Error(`invalid sprite name ${JSON.stringify(spec.name)}`);
      const sprite = new Sprite(
        spec.id,
        spec.name,
        organization,
        record.createdAt,
        () => model.urlFor(spec.name),
        { name: spec.name, labels: record.labels, urlSettings: record.urlSettings, config: record.config, environment: record.environment },
        machine,
        clock,
        limits,
      );
      model.adopt(sprite);
      adopted++;
    } catch (err) {
      logger.warn({ sprite: spec.name, err: (err as Error).message }, 'adoption: machine not adopted, removed');
      await machine.destroy().catch(() => undefined);
    }
  }
  if (adopted) logger.info({ sprites: adopted }, 'adopted the sprites an earlier spritzer left');
  return adopted;
}
