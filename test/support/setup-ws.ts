// Node 20 has no global WebSocket; the official @fly/sprites SDK needs one (STACK-NOTES §2).
import { WebSocket } from 'ws';
(globalThis as unknown as { WebSocket: unknown }).WebSocket ??= WebSocket;
