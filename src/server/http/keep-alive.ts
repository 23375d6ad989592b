/**
 * The idle timer of a keep-alive connection, kept from cutting a request that has already arrived. Node's http
 * server closes a connection left idle for `keepAliveTimeout` (+ `keepAliveTimeoutBuffer` on Node 24) after its last
 * response. When spritzer's event loop was busy for longer than that (a large shell-engine write, a collection of a
 * big heap), the timer runs before the poll phase that would read the client's next request, which is already
 * waiting in the socket: Node destroyed the connection and the client saw ECONNRESET for a request it had sent on
 * a connection that was open. Here a timed-out connection is closed one turn later, after the poll phase, and only
 * if no request came in on it meanwhile. It does not change how long an idle connection lives.
 */
import type http from 'node:http';
import type { Socket } from 'node:net';

/**
 * Installs the timeout handling on `server` (a `timeout` listener: Node then leaves closing the socket to it). A
 * socket whose timer fires is destroyed in the next check phase unless a `request` arrived on it in between.
 * @see https://nodejs.org/api/http.html#event-timeout (a listener takes over the timed-out socket)
 */
export function spareConnectionsWithWaitingRequests(server: http.Server): void {
  const requests = new WeakMap<Socket, number>();
  server.on('request', (req: http.IncomingMessage) => {
    const socket = req.socket as Socket;
    requests.set(socket, (requests.get(socket) ?? 0) + 1);
  });
  server.on('timeout', (socket: Socket) => {
    const before = requests.get(socket) ?? 0;
    setImmediate(() => {
      if (!socket.destroyed && (requests.get(socket) ?? 0) === before) socket.destroy();
    });
  });
}
