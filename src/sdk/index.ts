/**
 * @spritzer/sdk: a typed client for the Sprites API (and spritzer), built from spec/openapi.yaml with
 * openapi-fetch, plus exec, proxy and watches over WebSocket and strict NDJSON streams. This file only re-exports.
 * @see docs/wire-reference.md §18; docs/architecture.md "src/sdk/"
 */
export { createSpritesClient, DEFAULT_BASE_URL, SDK_WS_METHODS, type SpritesClient, type SpritesClientOptions, type CreatedCheckpoint } from './client.ts';
export { SDK_METHODS, fileModeString, type OperationId, type OperationMethods, type BodyBytes, type ExecHttpOptions, type FsPathOptions, type ListCheckpointsOptions, type WriteFileOptions } from './operations.ts';
export { ExecCommand, execQuery, type ExecEvent, type ExecOptions, type RunOptions, type RunResult, type WebSocketConstructor, type WebSocketLike } from './exec.ts';
export { ProxyConnection, SocketWatch, PROXY_CONNECT_TIMEOUT_MS, type ProxyOptions, type WatchFilesystemOptions, type FsWatchMessage, type PortWatchMessage, type SocketClose } from './watch-proxy.ts';
export { parseExecHttpBody, type ExecHttpResult } from './exec-http.ts';
export { EventStream, checkpointIdFromComplete, type CheckpointStreamEvent, type KillStreamEvent, type ServiceStreamEvent, type TypedEvent } from './ndjson.ts';
export { SpritesApiError, FilesystemError, SpritesStreamError, ExecProtocolError, SocketProtocolError, type FilesystemErrorCode, type ExecProtocolErrorCode, type SocketProtocolErrorCode, type RateLimitHeaders } from './errors.ts';
export { NdjsonError } from '../protocol/ndjson.ts';
export type { SessionInfoMessage } from '../protocol/messages.ts';
export type { paths, components, operations } from '../../generated/openapi.d.ts';
