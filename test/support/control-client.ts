/**
 * A raw control-socket client for tests (docs/wire-reference.md §5): it records every frame the server sends,
 * starts `control:` envelope ops, and waits for an op's end. No SDK logic, so a test sees the wire itself.
 */
import { WebSocket } from 'ws';
import { TOKEN } from './server.ts';

/** One frame a control client received; `json` when the text (after an optional `control:`) parses. */
export interface Frame {
  binary: boolean;
  data: Buffer;
  json?: any;
}

/** A raw control-socket client that records every frame. */
export class ControlClient {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private wakers = new Set<() => void>();

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const buf = Buffer.from(data as Buffer);
      const frame: Frame = { binary: isBinary, data: buf };
      if (!isBinary) {
        const text = buf.toString();
        try {
          frame.json = JSON.parse(text.startsWith('control:') ? text.slice(8) : text);
        } catch {
          // not JSON: recorded as is
        }
      }
      this.frames.push(frame);
      for (const w of [...this.wakers]) w();
    });
    this.closed = new Promise((r) =>
      ws.on('close', (code, reason) => {
        r({ code, reason: reason.toString() });
        for (const w of [...this.wakers]) w();
      }),
    );
  }

  static open(base: string, name: string, query = ''): Promise<ControlClient> {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/sprites/${name}/control${query}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const client = new ControlClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`handshake ${res.statusCode}`), { status: res.statusCode })));
      ws.once('error', reject);
    });
  }

  /** Resolves with the first frame from index `from` on that satisfies `pred`. */
  waitFor(pred: (f: Frame) => boolean, from = 0, timeoutMs = 20_000): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const hit = this.frames.slice(from).find(pred);
        if (hit) return done(() => resolve(hit));
        if (this.ws.readyState === WebSocket.CLOSED) done(() => reject(new Error('socket closed before the expected frame')));
      };
      const timer = setTimeout(() => done(() => reject(new Error('no expected frame in time'))), timeoutMs);
      const done = (then: () => void) => {
        clearTimeout(timer);
        this.wakers.delete(check);
        then();
      };
      this.wakers.add(check);
      check();
    });
  }

  start(args: Record<string, unknown>, op = 'exec'): number {
    const from = this.frames.length;
    this.ws.send(`control:${JSON.stringify({ type: 'op.start', op, args })}`);
    return from;
  }

  /** Waits for the op that started at frame `from` to end; returns its frames and decoded output. */
  async end(from: number) {
    const last = await this.waitFor((f) => f.json?.type === 'op.complete' || f.json?.type === 'op.error', from);
    const frames = this.frames.slice(from, this.frames.indexOf(last) + 1);
    const tty = frames.find((f) => f.json?.type === 'session_info')?.json.tty;
    let stdout = '';
    let stderr = '';
    for (const f of frames.filter((g) => g.binary)) {
      if (tty) stdout += f.data.toString();
      else if (f.data[0] === 1) stdout += f.data.subarray(1).toString();
      else if (f.data[0] === 2) stderr += f.data.subarray(1).toString();
    }
    return { frames, last: last.json, stdout, stderr, exitCode: last.json?.args?.exitCode as number | undefined };
  }

  /** Runs one exec op to its end. */
  async run(args: Record<string, unknown>) {
    return this.end(this.start(args));
  }
}

