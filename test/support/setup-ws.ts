// Node 20 has no global WebSocket; the official @fly/sprites SDK needs one (Node ≥ 22 has it built in).
import { WebSocket } from 'ws';
(globalThis as unknown as { WebSocket: unknown }).WebSocket ??= WebSocket;
