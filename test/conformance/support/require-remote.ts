/**
 * Guard of `npm run test:conformance:remote`: exits 1 with a clear message unless `SPRITES_BASE_URL`, a token
 * (`SPRITES_TOKEN` or `SPRITES_TEST_TOKEN`) and `SPRITZER_ALLOW_REMOTE=1` are all set, so the suite never runs
 * against a real account (which may cost money) by accident. It runs nothing itself.
 */
import { pathToFileURL } from 'node:url';
import { resolveTarget } from './target-config.ts';

/** The reasons `env` does not allow a remote run (empty when it does). */
export function remoteRunProblems(env: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  if (!env.SPRITES_BASE_URL?.trim()) problems.push('SPRITES_BASE_URL is not set (the Sprites API to test, e.g. https://api.sprites.dev)');
  if (!env.SPRITES_TOKEN?.trim() && !env.SPRITES_TEST_TOKEN?.trim()) problems.push('neither SPRITES_TOKEN nor SPRITES_TEST_TOKEN is set');
  if (env.SPRITZER_ALLOW_REMOTE !== '1') problems.push('SPRITZER_ALLOW_REMOTE=1 is not set (the run creates and deletes real sprites, which may cost money)');
  if (problems.length === 0) {
    try {
      resolveTarget(env);
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  return problems;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problems = remoteRunProblems(process.env);
  if (problems.length) {
    console.error(`test:conformance:remote refuses to run:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.error(`conformance suite → ${process.env.SPRITES_BASE_URL} (emulatorOnly tests are skipped)`);
}
