/**
 * The start's warm-up request (src/server/http/warm-up.ts): the server sends itself one `GET /_spritzer/health`
 * before it counts as started, and no log shows it as a client's request — neither the inspector's request log
 * nor the request lines — while a client's own health check is logged as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { api, startTestServer } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';

describe('the warm-up request at start', () => {
  let srv: RunningServer;
  const lines: Array<{ msg?: string; req?: { url?: string } }> = [];
  beforeAll(async () => {
    srv = await startTestServer('shell', { logger: pino({ level: 'info' }, { write: (s: string) => lines.push(JSON.parse(s)) }) });
  });
  afterAll(() => srv.close());

  it('is in neither the inspector log nor the request lines; a client health check is in both', async () => {
    const call = api(srv.url);
    const before = await call('GET', '/_spritzer/requests');
    expect(before.status).toBe(200);
    const paths = (r: { json: unknown }) => (r.json as { requests: Array<{ path: string }> }).requests.map((e) => e.path);
    expect(paths(before)).not.toContain('/_spritzer/health');
    expect(lines.filter((l) => l.req?.url === '/_spritzer/health')).toHaveLength(0);

    expect((await call('GET', '/_spritzer/health')).status).toBe(200);
    expect(paths(await call('GET', '/_spritzer/requests'))).toContain('/_spritzer/health');
    expect(lines.filter((l) => l.req?.url === '/_spritzer/health')).toHaveLength(1);
  });
});
