import net, { type AddressInfo } from 'node:net';

/**
 * A TCP proxy to `target` that can freeze: while frozen it still accepts connections and reads
 * what clients send, but passes nothing on and answers nothing, like a stopped (SIGSTOP) server
 * whose kernel keeps accepting. Thawing passes on what was held, as a resumed server reads it.
 */
export interface FreezableTcpProxy {
  /** Where the proxy listens (127.0.0.1, a port the OS picked). */
  readonly host: string;
  readonly port: number;
  freeze(): void;
  thaw(): void;
  /** Everything clients sent while frozen (since the last freeze), as text. */
  held(): string;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 (a port the OS picks) to `target`. */
export async function startFreezableTcpProxy(target: { host: string; port: number }): Promise<FreezableTcpProxy> {
  let frozen = false;
  let held: Buffer[] = [];
  const pending: Array<() => void> = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    for (const socket of [client, upstream]) {
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => {
      if (!frozen) return void upstream.write(chunk);
      held.push(chunk);
      pending.push(() => upstream.write(chunk));
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!frozen) return void client.write(chunk);
      pending.push(() => client.write(chunk));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { address, port } = server.address() as AddressInfo;
  return {
    host: address,
    port,
    freeze: () => {
      frozen = true;
      held = [];
    },
    thaw: () => {
      frozen = false;
      for (const pass of pending.splice(0)) pass();
    },
    held: () => Buffer.concat(held).toString('utf8'),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
