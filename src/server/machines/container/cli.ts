/**
 * The container engine's command-line flags, with their `SPRITZER_*` env equivalents: `--container-runtime`,
 * `--sprite-image`, `--namespace`, `--create-timeout`, `--agent-image` (Kubernetes), `--ephemeral`. main.ts adds them; it owns
 * parsing and defaults only.
 * @see README "Flags", docs/container.md
 */
import { Option } from 'commander';
import { positiveDuration } from '../../config/cli-numbers.ts';
import { DEFAULT_AGENT_IMAGE, DEFAULT_CREATE_TIMEOUT_MS, DEFAULT_NAMESPACE, DEFAULT_SPRITE_IMAGE } from './defaults.ts';
import { CONTAINER_RUNTIMES, type ContainerRuntimeName } from './runtime.ts';

/** What the flags parse to (commander's camelCase keys). */
export interface ContainerCliOptions {
  containerRuntime: ContainerRuntimeName;
  spriteImage: string;
  namespace: string;
  /** Milliseconds. */
  createTimeout: number;
  /** Kubernetes: the spritzer image of each pod's agent init container. */
  agentImage: string;
  /** Sprites end with the server: at exit its containers are deleted instead of left for the next start to adopt. */
  ephemeral: boolean;
}

/** Parses a `--create-timeout` value (a Go duration such as `90s`, or seconds) into milliseconds ≥ 1. */
export const parseCreateTimeout: (value: string) => number = positiveDuration('60s, 2m or 90 (seconds)');

/** The six options, ready for `program.addOption`. */
export function containerOptions(): Option[] {
  return [
    new Option('--container-runtime <runtime>', 'container engine: docker, podman, kubernetes or auto (DOCKER_HOST or the default socket, then Podman\'s, then the in-cluster config)')
      .env('SPRITZER_CONTAINER_RUNTIME')
      .choices([...CONTAINER_RUNTIMES])
      .default('auto'),
    new Option('--sprite-image <image>', 'container engine: the image sprites run (needs node 20 on its PATH)').env('SPRITZER_SPRITE_IMAGE').default(DEFAULT_SPRITE_IMAGE),
    new Option('--namespace <name>', 'container engine: prefix of container names and label of everything it makes; on Kubernetes, the namespace of the pods').env('SPRITZER_NAMESPACE').default(DEFAULT_NAMESPACE),
    new Option('--create-timeout <duration>', 'container engine: how long creating a sprite may take, until its agent answers')
      .env('SPRITZER_CREATE_TIMEOUT')
      .default(DEFAULT_CREATE_TIMEOUT_MS, '60s')
      .argParser(parseCreateTimeout),
    new Option('--agent-image <image>', 'container engine on Kubernetes: the spritzer image whose init container copies the agent into each pod')
      .env('SPRITZER_AGENT_IMAGE')
      .default(DEFAULT_AGENT_IMAGE),
    new Option('--ephemeral', 'container engine: sprites end with this server: at exit its containers and checkpoint images are deleted instead of left for the next start to adopt (test servers)')
      .env('SPRITZER_EPHEMERAL')
      .default(false),
  ];
}
