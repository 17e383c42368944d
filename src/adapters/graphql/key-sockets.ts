import type { WebSocket } from 'ws';
import type { Principal } from '../../core/auth/api-key';

/**
 * The open graphql-ws sockets of this process by API key (a revoked key closes its open
 * sockets). Filled when a connection is authenticated, emptied when it closes.
 */
export class KeySockets {
  private readonly byKey = new Map<string, Set<WebSocket>>();
  private readonly principals = new WeakMap<WebSocket, Principal>();

  /** Authenticated sockets open in this process. */
  get size(): number {
    let n = 0;
    for (const set of this.byKey.values()) n += set.size;
    return n;
  }

  /** Open authenticated sockets of `keyId` in this process. */
  countOf(keyId: string): number {
    return this.byKey.get(keyId)?.size ?? 0;
  }

  add(principal: Principal, socket: WebSocket): void {
    this.principals.set(socket, principal);
    let set = this.byKey.get(principal.keyId);
    if (!set) this.byKey.set(principal.keyId, (set = new Set()));
    set.add(socket);
  }

  /** Who authenticated `socket`, or undefined before (or without) a successful connection_init. */
  principalOf(socket: WebSocket): Principal | undefined {
    return this.principals.get(socket);
  }

  remove(socket: WebSocket): void {
    const principal = this.principals.get(socket);
    if (!principal) return;
    this.principals.delete(socket);
    const set = this.byKey.get(principal.keyId);
    set?.delete(socket);
    if (set?.size === 0) this.byKey.delete(principal.keyId);
  }

  /** Closes every socket of `keyId` with `code`; returns how many were open. */
  closeKey(keyId: string, code: number, reason: string): number {
    const set = this.byKey.get(keyId);
    if (!set) return 0;
    const sockets = [...set];
    for (const socket of sockets) {
      this.remove(socket);
      socket.close(code, reason);
    }
    return sockets.length;
  }

  /** Closes every socket (shutdown). */
  closeAll(code: number, reason: string): void {
    for (const keyId of [...this.byKey.keys()]) this.closeKey(keyId, code, reason);
  }
}
