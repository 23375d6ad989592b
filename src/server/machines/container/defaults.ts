/**
 * The container engine's defaults, in a module of their own so the CLI (./cli.ts) can show them without loading
 * the engine (dockerode, @kubernetes/client-node and the sandbox machine load only when `--exec container` runs).
 * @see docs/container.md, docs/performance.md "Start"
 */

/** The image sprites run when `--sprite-image` is not given (as in the seed). */
export const DEFAULT_SPRITE_IMAGE = 'node:22-bookworm';
/** The namespace (container name prefix and label) when `--namespace` is not given. */
export const DEFAULT_NAMESPACE = 'spritzer';
/** How long a container may take from create to an answering agent when `--create-timeout` is not given (ms). */
export const DEFAULT_CREATE_TIMEOUT_MS = 60_000;
/** The image whose init container delivers the agent when `--agent-image` is not given (deploy/k8s builds it). */
export const DEFAULT_AGENT_IMAGE = 'spritzer:latest';
