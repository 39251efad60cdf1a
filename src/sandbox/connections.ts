// How many connections the sandbox holds open, in all and per client address. A connection that has not
// sent a whole request yet (slow or unfinished headers) or sits idle between requests holds a file
// descriptor and nothing else: when a new connection would pass a limit, the one of those that has waited
// longest (from that address, for the per-address limit) is closed to make room, so a client that sends its
// request promptly is served however many slow ones are open. Only when every connection counted against
// the limit is busy with a request is the new one refused (closed at once).
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** Open connections in all. */
  total: number;
  /** Open connections from one client address. */
  perAddress: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { total: 1024, perAddress: 128 };

export class ConnectionGuard {
  private readonly open = new Set<Socket>();
  private readonly byAddress = new Map<string, Set<Socket>>();
  /** Connections without a request in progress, the longest waiting first. */
  private readonly waiting = new Set<Socket>();

  constructor(private readonly limits: ConnectionLimits) {}

  /** How many connections are open. */
  get size(): number {
    return this.open.size;
  }

  /** A new connection: taken (making room if it must), or closed when there is no room. */
  admit(socket: Socket): void {
    const address = socket.remoteAddress ?? '';
    const fromAddress = this.byAddress.get(address) ?? new Set<Socket>();
    if (fromAddress.size >= this.limits.perAddress && !this.evict((s) => fromAddress.has(s))) {
      socket.destroy();
      return;
    }
    if (this.open.size >= this.limits.total && !this.evict(() => true)) {
      socket.destroy();
      return;
    }
    this.open.add(socket);
    fromAddress.add(socket);
    this.byAddress.set(address, fromAddress);
    this.waiting.add(socket);
    socket.once('close', () => {
      this.open.delete(socket);
      this.waiting.delete(socket);
      fromAddress.delete(socket);
      if (fromAddress.size === 0 && this.byAddress.get(address) === fromAddress)
        this.byAddress.delete(address);
    });
  }

  /** A request arrived on the connection: it is not closed to make room until it is answered. */
  busy(socket: Socket): void {
    this.waiting.delete(socket);
  }

  /** Every request on the connection is answered: it waits again, as the newest. */
  idle(socket: Socket): void {
    if (!this.open.has(socket)) return;
    this.waiting.delete(socket);
    this.waiting.add(socket);
  }

  /** Closes the longest-waiting connection that `which` accepts; false when there is none. */
  private evict(which: (socket: Socket) => boolean): boolean {
    for (const socket of this.waiting) {
      if (!which(socket)) continue;
      this.waiting.delete(socket);
      this.open.delete(socket);
      this.byAddress.get(socket.remoteAddress ?? '')?.delete(socket);
      socket.destroy();
      return true;
    }
    return false;
  }
}
