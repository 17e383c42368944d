import WebSocket from 'ws';
import { wsUrl } from './graphql-client';

/** A raw graphql-transport-ws socket that sent connection_init. */
export interface InitSocket {
  readonly ws: WebSocket;
  /** 'acked' once connection_ack arrives, or the close code and reason if the socket closed first. */
  readonly outcome: Promise<'acked' | { code: number; reason: string }>;
  /** The close code and reason, whenever the socket closes. */
  readonly closed: Promise<{ code: number; reason: string }>;
}

/** Opens a socket to `baseUrl`'s /graphql with extra upgrade `headers` and sends connection_init with `payload`. */
export function initSocket(baseUrl: string, payload: Record<string, unknown>, headers: Record<string, string> = {}): InitSocket {
  const ws = new WebSocket(wsUrl(baseUrl), 'graphql-transport-ws', { headers });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  ws.on('error', () => undefined);
  ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload })));
  const acked = new Promise<'acked'>((resolve) => {
    ws.on('message', (data) => {
      if ((JSON.parse(String(data)) as { type?: string }).type === 'connection_ack') resolve('acked');
    });
  });
  return { ws, outcome: Promise.race([acked, closed]), closed };
}
