// vitest globalSetup: one spritzer for the whole run. Point `globalSetup` at this file in vitest.config.ts;
// tests read SPRITES_BASE_URL and SPRITES_TOKEN from process.env (vitest passes them on to the workers).
// The package is spritzer-emulator (installed from its packed tarball until it is published): docs/testing.md.
import { startSpritzer, type RunningSpritzer } from 'spritzer-emulator/testing';

let spritzer: RunningSpritzer | undefined;

export async function setup(): Promise<void> {
  spritzer = await startSpritzer();
  Object.assign(process.env, spritzer.env);
}

export async function teardown(): Promise<void> {
  await spritzer?.stop();
}
