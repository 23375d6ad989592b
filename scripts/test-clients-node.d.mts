/** Types of scripts/test-clients-node.mjs (see its docstrings). */
export interface NodeSuite { id: string; dir: string; runtime?: 'node24' }
export type Staged = { stage: string; node: string; files: string[]; installSeconds: number } | { error: string };
export function stageNodeSuite(root: string, suite: NodeSuite): Staged;
export function nodeRuntime(root: string, suite: NodeSuite): { node: string } | { error: string };
export interface RunningServer { url: string; token: string; stop(): Promise<void> }
export function startServer(o: { bin: string; engine: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<RunningServer>;
export function runNodeTests(o: { node: string; stage: string; files: string[]; xml: string; env: NodeJS.ProcessEnv }): Promise<number>;
