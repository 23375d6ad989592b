/**
 * @spritzer/sdk as a user gets it: `npm pack` of src/sdk (its prepack build), an install of the tarball into a
 * scratch project, then the package's types checked with tsc and its code run with node against spritzer.
 * The scratch project lives in a temp dir and is removed afterwards.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestServer, TOKEN } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../..', import.meta.url));
const sdkDir = join(repo, 'src', 'sdk');
const fixture = join(repo, 'test', 'package', 'sdk-pack', 'fixture');
const tsc = join(repo, 'node_modules', '.bin', 'tsc');

describe('@spritzer/sdk package', () => {
  let temp: string;
  let project: string;
  let server: RunningServer;

  beforeAll(async () => {
    temp = mkdtempSync(join(tmpdir(), 'spritzer-sdk-pack-'));
    await run('npm', ['pack', '--pack-destination', temp, '--silent'], { cwd: sdkDir });
    const tarball = readdirSync(temp).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack left no tarball in ${temp}`);
    project = join(temp, 'project');
    cpSync(fixture, project, { recursive: true });
    renameSync(join(project, 'main.ts.txt'), join(project, 'main.ts'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    // openapi-fetch and ws come from the npm cache; the registry is only asked for what the cache lacks.
    await run('npm', ['install', join(temp, tarball), '--prefer-offline', '--no-audit', '--no-fund'], { cwd: project });
    server = await startTestServer('shell');
  }, 90_000);

  afterAll(async () => {
    await server?.close();
    if (temp) rmSync(temp, { recursive: true, force: true });
  });

  it('typechecks a consumer file that imports it by name', async () => {
    const result = await run(tsc, ['-p', project], { cwd: project }).then(
      () => ({ code: 0, out: '' }),
      (err: { code: number; stdout: string }) => ({ code: err.code, out: err.stdout }),
    );
    expect(result.out).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);

  it('runs from the installed package against spritzer: REST, exec over ws, typed errors', async () => {
    const { stdout } = await run(process.execPath, ['check.mjs', server.url, TOKEN], { cwd: project });
    const seen = JSON.parse(stdout);
    expect(seen.methods).toBeGreaterThan(50);
    expect(seen.run).toEqual({ stdout: 'from-pack\n', stderr: '', exitCode: 7 });
    expect(seen.error).toEqual({ name: 'SpritesApiError', status: 404 });
  }, 30_000);
});
