/**
 * Small probes of what a client sees on the wire: whether a port accepts connections, and how a WebSocket handshake
 * with chosen headers ends (101, or the refusal's status and JSON body). Every socket they open is closed.
 */
import net from 'node:net';
import { WebSocket } from 'ws';

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** Opens a WebSocket to `url` with `headers` (and sub-protocols): `{status: 101}` once open (then closed), or the refusal. */
export function handshake(url: string, headers: Record<string, string>, protocols?: string[]): Promise<{ status: number; body?: unknown }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { headers });
    ws.once('open', () => {
      ws.close();
      resolve({ status: 101 });
    });
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    ws.once('error', (err) => {
      if (!/Unexpected server response/.test(err.message)) reject(err);
    });
  });
}
