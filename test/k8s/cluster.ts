/**
 * The real local cluster the k8s suites run on (`npm run cluster:up`, named by SPRITZER_K8S_KUBECONFIG), or why there
 * is none: the suites skip with that reason instead of failing on a machine without a cluster.
 */
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';

/** The kubeconfig of the cluster under test ('' when none is named). */
export const KUBECONFIG = process.env.SPRITZER_K8S_KUBECONFIG ?? '';

/** The cluster's config and core API once it answers a node list, else `reason` says why not (and how to start one). */
export async function openCluster(): Promise<{ core?: CoreV1Api; config?: KubeConfig; reason: string }> {
  if (!KUBECONFIG) return { reason: 'SPRITZER_K8S_KUBECONFIG is not set: run `npm run cluster:up`, then `npm run test:k8s`' };
  const config = new KubeConfig();
  try {
    config.loadFromFile(KUBECONFIG);
    const core = config.makeApiClient(CoreV1Api);
    await core.listNode();
    return { core, config, reason: '' };
  } catch (err) {
    return { reason: `the cluster of ${KUBECONFIG} does not answer (${(err as Error).message}): run \`npm run cluster:up\`` };
  }
}
