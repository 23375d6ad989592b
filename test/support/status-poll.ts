/**
 * Test support: a client that creates a sprite and then polls `GET /v1/sprites/{name}` until it is `running` or
 * `warm`, as integrations wait for a new sprite (the create answer says `cold`). Returns every status it saw, in
 * order, the create answer's first, and the sprite's `created_at` and `last_started_at` as the server reports them.
 */
import { api } from './server.ts';

/** What the polling client saw. */
export interface PollRecord {
  statuses: string[];
  createdAt: string;
  lastStartedAt: string | null;
}

/** Creates `name` and polls; `wait(ms)` is the pause between polls (real sleep, or a fake clock's advance). */
export async function createAndPoll(base: string, name: string, wait: () => Promise<void>, maxPolls = 200): Promise<PollRecord> {
  const call = api(base);
  const created = await call('POST', '/v1/sprites', { name });
  if (created.status !== 201) throw new Error(`create ${name}: ${created.status}`);
  const statuses = [created.json.status as string];
  let last = created.json;
  for (let i = 0; i < maxPolls && !['running', 'warm'].includes(statuses.at(-1)!); i++) {
    await wait();
    last = (await call('GET', `/v1/sprites/${name}`)).json;
    statuses.push(last.status);
  }
  return { statuses, createdAt: last.created_at, lastStartedAt: last.last_started_at ?? null };
}

/** The statuses with repeats folded (`cold cold running` → `cold running`). */
export function distinct(statuses: string[]): string[] {
  return statuses.filter((s, i) => i === 0 || statuses[i - 1] !== s);
}
