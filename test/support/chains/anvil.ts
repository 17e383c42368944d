/**
 * A local EVM node for tests and for `npm run chains:local`: anvil from the @foundry-rs/anvil npm
 * package, as BSC (chain id 56) with a moving `finalized` tag (docs/chains.md § Local chains).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';

/** The mnemonic anvil funds its default accounts from (m/44'/60'/0'/0/i, 10,000 ETH each). */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

/** A running anvil. */
export interface Anvil {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** One JSON-RPC call; rejects with the node's error message when it answers an error. */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Stops the node (SIGTERM, then SIGKILL after 3 s) and waits for it to exit. */
  stop(): Promise<void>;
}

const ROOT = path.resolve(__dirname, '../../..');
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * The anvil executable: the platform package's binary when it is installed (one process, signals
 * reach it directly), else the package's node wrapper in node_modules/.bin.
 */
function anvilCommand(): string {
  const platform = { linux: 'linux', darwin: 'darwin' }[process.platform as string];
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string];
  if (platform && arch) {
    try {
      const pkg = require.resolve(`@foundry-rs/anvil-${platform}-${arch}/package.json`, { paths: [ROOT] });
      const binary = path.join(path.dirname(pkg), 'bin', 'anvil');
      if (existsSync(binary)) return binary;
    } catch {
      // not installed for this platform: the wrapper below finds its own binary or says why not
    }
  }
  return path.join(ROOT, 'node_modules/.bin/anvil');
}

/** A TCP port free right now on 127.0.0.1 (another process may still take it: the caller retries). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Sends one JSON-RPC request to `url` and returns its result, or throws with the node's error. */
export async function jsonRpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(url, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await response.json() as { result?: T; error?: { code: number; message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message} (${body.error.code})`);
  return body.result as T;
}

export interface AnvilOptions {
  /** Port to bind; a free one when omitted (retried if another process takes it first). */
  port?: number;
  /** Seconds between blocks; omitted: a block per transaction (automine) and `anvil_mine`. */
  blockTime?: number;
  /** Bind address; 127.0.0.1 unless a person wants the node reachable from elsewhere. */
  host?: string;
}

/**
 * Starts anvil as BSC: `--chain-id 56`, and `--slots-in-an-epoch 1` so the `finalized` block tag
 * follows the head (finalized = head − 2) instead of staying at 0. Resolves once the node answers
 * `eth_chainId`. Throws when it cannot start (the binary's last output in the message).
 */
export async function startAnvil(options: AnvilOptions = {}): Promise<Anvil> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = options.port ?? await freePort();
    try {
      return await launch(port, options);
    } catch (error) {
      lastError = error;
      if (options.port !== undefined) break;
    }
  }
  throw lastError;
}

async function launch(port: number, options: AnvilOptions): Promise<Anvil> {
  const host = options.host ?? '127.0.0.1';
  const args = ['--host', host, '--port', String(port), '--chain-id', '56', '--slots-in-an-epoch', '1', '--silent',
    ...(options.blockTime !== undefined ? ['--block-time', String(options.blockTime)] : [])];
  const child = spawn(anvilCommand(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  running.add(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => {
    running.delete(child);
    resolve();
  }));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`anvil exited at start: ${stderr.trim()}`);
    try {
      const chainId = await jsonRpc<string>(url, 'eth_chainId');
      if (chainId !== '0x38') throw new Error(`anvil answered chain id ${chainId}, not 56`);
      // A node that answered before ours bound the port is someone else's: ours exits when it cannot bind.
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`anvil exited at start: ${stderr.trim()}`);
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`anvil did not answer on ${url}: ${String(error)} ${stderr.trim()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { url, port, pid: child.pid!, stop, rpc: (method, params) => jsonRpc(url, method, params) };
}
