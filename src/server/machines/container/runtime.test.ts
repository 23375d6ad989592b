import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { candidateEndpoints, clientFor, openEngineApi } from './runtime.ts';
import { parseCreateTimeout } from './cli.ts';
import { settingsFromEnv } from './index.ts';
import { dockerSafe } from './container-machine.ts';

const env = (vars: Record<string, string>, existing: string[] = []) => ({ env: vars, exists: (p: string) => existing.includes(p) });

describe('container runtime discovery', () => {
  it('auto tries DOCKER_HOST, the default Docker socket, then Podman sockets, listing only sockets that exist', () => {
    const d = env(
      { DOCKER_HOST: 'unix:///x/docker.sock', XDG_RUNTIME_DIR: '/run/user/0' },
      ['/x/docker.sock', '/var/run/docker.sock', '/run/user/0/podman/podman.sock'],
    );
    expect(candidateEndpoints('auto', d)).toEqual([
      { runtime: 'docker', endpoint: 'unix:///x/docker.sock' },
      { runtime: 'docker', endpoint: 'unix:///var/run/docker.sock' },
      { runtime: 'podman', endpoint: 'unix:///run/user/0/podman/podman.sock' },
    ]);
    expect(candidateEndpoints('podman', d)).toEqual([{ runtime: 'podman', endpoint: 'unix:///run/user/0/podman/podman.sock' }]);
    expect(candidateEndpoints('docker', env({}, []))).toEqual([]);
    expect(candidateEndpoints('docker', env({ DOCKER_HOST: 'tcp://10.0.0.1:2375' }))).toEqual([{ runtime: 'docker', endpoint: 'tcp://10.0.0.1:2375' }]);
  });

  it('has no Engine API on kubernetes, and names every endpoint it tried when none answers', async () => {
    await expect(openEngineApi('kubernetes', env({}))).rejects.toThrow(/kubernetes runtime has no Docker Engine API/);
    await expect(openEngineApi('docker', env({}))).rejects.toThrow(/no docker daemon reachable: no socket found/);
    const dir = await mkdtemp(join(tmpdir(), 'ctr-rt-'));
    const sock = join(dir, 'd.sock');
    const srv = createServer((_req, res) => res.writeHead(500).end('{"message":"broken"}'));
    await new Promise<void>((r) => srv.listen(sock, r));
    try {
      await expect(openEngineApi('auto', env({ DOCKER_HOST: `unix://${sock}` }, [sock]))).rejects.toThrow(new RegExp(`unix://${sock}`));
    } finally {
      srv.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('connects to a daemon that answers ping and version, and tells Podman from Docker', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ctr-rt-'));
    const sock = join(dir, 'p.sock');
    const srv = createServer((req, res) => {
      if (req.url!.endsWith('/_ping')) return res.writeHead(200, { 'Content-Type': 'text/plain' }).end('OK');
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ Components: [{ Name: 'Podman Engine' }] }));
    });
    await new Promise<void>((r) => srv.listen(sock, r));
    try {
      const api = await openEngineApi('auto', env({ DOCKER_HOST: `unix://${sock}` }, [sock]));
      expect(api).toMatchObject({ runtime: 'podman', endpoint: `unix://${sock}` });
    } finally {
      srv.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('rejects an endpoint scheme it cannot speak', () => {
    expect(() => clientFor('ssh://host')).toThrow(TypeError);
  });
});

describe('container engine settings', () => {
  it('--create-timeout takes Go durations or seconds, and refuses nonsense', () => {
    expect(parseCreateTimeout('90s')).toBe(90_000);
    expect(parseCreateTimeout('2m')).toBe(120_000);
    expect(parseCreateTimeout('30')).toBe(30_000);
    expect(() => parseCreateTimeout('soon')).toThrow(/duration/);
    expect(() => parseCreateTimeout('0')).toThrow(/at least/);
  });

  it('SPRITZER_* env settings map onto the engine options; a bad runtime is refused', () => {
    expect(settingsFromEnv({ SPRITZER_CONTAINER_RUNTIME: 'podman', SPRITZER_SPRITE_IMAGE: 'img:1', SPRITZER_NAMESPACE: 'ns', SPRITZER_CREATE_TIMEOUT: '5s' })).toEqual({
      runtime: 'podman',
      image: 'img:1',
      namespace: 'ns',
      createTimeoutMs: 5000,
    });
    expect(settingsFromEnv({})).toEqual({ runtime: undefined, image: undefined, namespace: undefined, createTimeoutMs: undefined });
    expect(() => settingsFromEnv({ SPRITZER_CONTAINER_RUNTIME: 'lxc' })).toThrow(TypeError);
  });

  it('names and tags are made Docker-safe', () => {
    expect(dockerSafe('Sprite-ABC/1:x')).toBe('sprite-abc_1_x');
  });
});
