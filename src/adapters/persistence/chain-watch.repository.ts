import type { EntityManager } from '@mikro-orm/postgresql';
import type { Blockchain } from '../../core/catalog/catalog';

/** Where one chain's watcher stands, for /readyz details and the metrics (docs/decisions.md § Onchain deposits: watchers). */
export interface ChainWatchStatus {
  readonly chain: Blockchain;
  readonly head: bigint;
  readonly finalized: bigint;
  /** Highest block or slot scanned; null before the first scan. */
  readonly scannedTo: bigint | null;
  /** When the last pass read the heights, and when a pass last reached the head. */
  readonly heightsAt: Date | null;
  readonly caughtUpAt: Date | null;
  /** The replica holding the lease, and until when (PostgreSQL's clock). */
  readonly leaseHolder: string | null;
  readonly leaseUntil: Date | null;
  /** PostgreSQL's clock when this was read: lags are measured against it, never a replica's clock. */
  readonly readAt: Date;
}

/**
 * The chain watchers' leases and positions on `chain_watchers` (docs/decisions.md § Onchain
 * deposits: watchers). A lease is taken or renewed by one statement judged by PostgreSQL's clock,
 * so replicas whose clocks differ still agree on who holds it; only its holder stores a cursor.
 */
export class ChainWatchRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * Takes or renews the lease of `chain` for `holder` for `leaseMs`: true when `holder` holds it
   * now (it was free, expired or already its own), false when another holder's lease runs.
   */
  async acquire(chain: Blockchain, holder: string, leaseMs: number): Promise<boolean> {
    const rows = await this.execute(
      `insert into chain_watchers (blockchain, lease_holder, lease_until, updated_at)
       values (?, ?, clock_timestamp() + ? * interval '1 millisecond', clock_timestamp())
       on conflict (blockchain) do update set lease_holder = excluded.lease_holder, lease_until = excluded.lease_until, updated_at = excluded.updated_at
        where chain_watchers.lease_holder = excluded.lease_holder or chain_watchers.lease_until is null or chain_watchers.lease_until < clock_timestamp()
       returning blockchain`,
      [chain, holder, leaseMs],
    );
    return rows.length === 1;
  }

  /** Gives the lease of `chain` up if `holder` holds it, so another replica takes over at once. */
  async release(chain: Blockchain, holder: string): Promise<void> {
    await this.execute('update chain_watchers set lease_until = null where blockchain = ? and lease_holder = ?', [chain, holder]);
  }

  /** Every chain's stored position and lease. */
  async statuses(): Promise<ChainWatchStatus[]> {
    const rows = await this.execute('select *, clock_timestamp() as read_at from chain_watchers order by blockchain', []);
    const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
    return rows.map((r) => ({
      chain: r.blockchain as Blockchain, head: BigInt(String(r.head)), finalized: BigInt(String(r.finalized)),
      scannedTo: r.scanned_to === null ? null : BigInt(String(r.scanned_to)), heightsAt: date(r.heights_at), caughtUpAt: date(r.caught_up_at),
      leaseHolder: r.lease_holder === null ? null : String(r.lease_holder), leaseUntil: date(r.lease_until), readAt: date(r.read_at)!,
    }));
  }

  private execute(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    return this.em.fork().execute<Record<string, unknown>[]>(sql, params);
  }
}
