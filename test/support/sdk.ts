/** Test helper for SDK tests: spritzer in-process with a `box` sprite, and an `@spritzer/sdk` client for it. */
import { startTestServer, TOKEN } from './server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { createSpritesClient } from '../../src/sdk/index.ts';

/** An SDK client bound to a running spritzer. */
export type SdkClient = ReturnType<typeof createSpritesClient>;

/** Starts spritzer (shell engine), creates the sprite `box`, and returns the server and a client. */
export async function sdkAgainstSpritzer(): Promise<{ server: RunningServer; client: SdkClient }> {
  const server = await startTestServer('shell');
  const client = createSpritesClient({ baseUrl: server.url, token: TOKEN });
  await client.createSprite({ name: 'box' });
  return { server, client };
}
