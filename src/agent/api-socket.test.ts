import { afterEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import { chmod, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { startTestAgent, type TestAgent } from '../../test/support/agent.ts';
import { findLanguageTools } from './api-socket.ts';
import { agentLanguagesMd, LANGUAGE_TOOLS } from '../protocol/sprite-docs.ts';

let agent: TestAgent | undefined;
let dir: string | undefined;
afterEach(async () => {
  await agent?.stop();
  agent = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Connects to `path`, sends `data`, half-closes, and resolves with everything received until the end (or a reset). */
function roundTrip(path: string, data: string): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(path);
    let got = '';
    s.on('data', (d) => (got += d.toString()));
    s.on('end', () => resolve(got));
    s.on('close', () => resolve(got));
    s.on('error', () => resolve(got));
    s.end(data);
  });
}

describe('the in-sprite API socket (ACCEPT relays)', () => {
  it('a connection inside reaches the host as a Duplex, both ways, with half-close', async () => {
    dir = await mkdtemp(join(tmpdir(), 'spritzer-api-'));
    const api = join(dir, 'api.sock');
    agent = await startTestAgent({ apiSocket: api });
    const accepted: Duplex[] = [];
    agent.client.onAccept = (conn) => {
      accepted.push(conn);
      let body = '';
      conn.on('data', (d: Buffer) => (body += d.toString()));
      conn.on('end', () => conn.end(`echo:${body}`));
    };
    expect((await stat(api)).mode & 0o777).toBe(0o666);
    expect(await roundTrip(api, 'hello')).toBe('echo:hello');
    expect(await roundTrip(api, 'again')).toBe('echo:again');
    expect(accepted).toHaveLength(2);
  });

  it('without an accept handler on the host the connection is reset, and nothing hangs', async () => {
    dir = await mkdtemp(join(tmpdir(), 'spritzer-api-'));
    const api = join(dir, 'api.sock');
    agent = await startTestAgent({ apiSocket: api });
    expect(await roundTrip(api, 'nobody')).toBe('');
  });
});

describe('languages.md on the engines with real programs', () => {
  it('lists the tools found as executable files in the PATH directories, the first directory of each, in table order', async () => {
    dir = await mkdtemp(join(tmpdir(), 'spritzer-tools-'));
    for (const d of ['usr/local/bin', 'usr/bin', 'bin']) await mkdir(join(dir, d), { recursive: true });
    const exe = async (path: string, mode = 0o755) => {
      await writeFile(join(dir!, path), '#!/bin/sh\n');
      await chmod(join(dir!, path), mode);
    };
    await exe('usr/bin/python3');
    await exe('usr/local/bin/python3');
    await exe('usr/bin/git');
    await exe('usr/bin/node', 0o644); // not executable: not a tool
    await mkdir(join(dir, 'usr/bin/perl')); // a directory: not a tool
    await symlink('python3', join(dir, 'usr/bin/pip3')); // a link to an executable file counts
    await exe('usr/bin/not-a-language-tool');
    const found = await findLanguageTools(dir);
    expect(found).toEqual([
      { name: 'python3', path: '/usr/local/bin/python3' },
      { name: 'pip3', path: '/usr/bin/pip3' },
      { name: 'git', path: '/usr/bin/git' },
    ]);
    const md = agentLanguagesMd(found);
    expect(md).toContain('| python3 | /usr/local/bin/python3 |');
    expect(md).toContain(`Not found: ${LANGUAGE_TOOLS.filter((t) => !['python3', 'pip3', 'git'].includes(t)).join(', ')}.`);
    expect(agentLanguagesMd([])).toContain('None of them was found.');
  });
});
