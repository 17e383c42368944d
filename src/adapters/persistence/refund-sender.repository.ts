import type { EntityManager } from '@mikro-orm/postgresql';
import type { Blockchain } from '../../core/catalog/catalog';
import type { WalletShortfall, WalletShortfallFindings } from '../../core/refunds/refund-funds';
import type { RefundShortfall } from '../../core/refunds/refund-sender';
import { formatAmount, type Stablecoin } from '../../core/shared/money';

interface FindingRow {
  blockchain: string; wallet: string; shortfall: string; shortfall_refund_id: string; shortfall_currency: string;
  shortfall_amount: string; shortfall_since: Date | string;
}

function findingOf(row: FindingRow): WalletShortfall {
  return {
    chain: row.blockchain as Blockchain, wallet: row.wallet, lacks: row.shortfall as RefundShortfall, refundId: row.shortfall_refund_id,
    currency: row.shortfall_currency as Stablecoin, amount: formatAmount(row.shortfall_amount, row.shortfall_currency as Stablecoin),
    since: new Date(row.shortfall_since),
  };
}

/**
 * The refunds worker's hot wallets on `refund_senders` (docs/decisions.md § Refunds;
 * docs/operations.md § Refunds): each wallet's lease, taken or renewed by one statement judged by
 * PostgreSQL's clock (replicas whose clocks differ agree on who holds it), and its standing
 * shortfall finding (WalletShortfallFindings port), one per wallet. Each call on a fresh fork.
 */
export class RefundSenderRepository implements WalletShortfallFindings {
  constructor(private readonly em: EntityManager) {}

  /**
   * Takes or renews the lease of (`chain`, `wallet`) for `holder` for `leaseMs` milliseconds: true
   * when `holder` holds it now (it was free, expired or already its own), false while another's runs.
   */
  async acquire(chain: Blockchain, wallet: string, holder: string, leaseMs: number): Promise<boolean> {
    const rows = await this.execute(
      `insert into refund_senders (blockchain, wallet, lease_holder, lease_until, updated_at)
       values (?, ?, ?, clock_timestamp() + ? * interval '1 millisecond', clock_timestamp())
       on conflict (blockchain, wallet) do update
         set lease_holder = excluded.lease_holder, lease_until = excluded.lease_until, updated_at = excluded.updated_at
       where refund_senders.lease_holder = excluded.lease_holder or refund_senders.lease_until is null or refund_senders.lease_until < clock_timestamp()
       returning blockchain`,
      [chain, wallet, holder, leaseMs],
    );
    return rows.length === 1;
  }

  /** Gives the lease up if `holder` holds it, so another replica takes over at once. */
  async release(chain: Blockchain, wallet: string, holder: string): Promise<void> {
    await this.execute('update refund_senders set lease_until = null, updated_at = clock_timestamp() where blockchain = ? and wallet = ? and lease_holder = ?', [chain, wallet, holder]);
  }

  /** Writes only when the wallet did not already stand short of the same thing for the same refund. */
  async raise(finding: WalletShortfall): Promise<'raised' | 'changed' | 'kept'> {
    const rows = await this.execute(
      `with prior as (select shortfall from refund_senders where blockchain = ? and wallet = ?),
       written as (
         insert into refund_senders (blockchain, wallet, shortfall, shortfall_refund_id, shortfall_currency, shortfall_amount, shortfall_since, updated_at)
         values (?, ?, ?, ?, ?, ?, ?, clock_timestamp())
         on conflict (blockchain, wallet) do update
           set shortfall = excluded.shortfall, shortfall_refund_id = excluded.shortfall_refund_id, shortfall_currency = excluded.shortfall_currency,
               shortfall_amount = excluded.shortfall_amount, shortfall_since = excluded.shortfall_since, updated_at = excluded.updated_at
         where refund_senders.shortfall is distinct from excluded.shortfall or refund_senders.shortfall_refund_id is distinct from excluded.shortfall_refund_id
         returning 1)
       select (select shortfall from prior) as prior, (select count(*) from written)::int as written`,
      [finding.chain, finding.wallet, finding.chain, finding.wallet, finding.lacks, finding.refundId, finding.currency, finding.amount, finding.since],
    );
    const { prior, written } = rows[0] as { prior: string | null; written: number };
    if (written === 0) return 'kept';
    return prior === null ? 'raised' : 'changed';
  }

  /** The old row is read in the update's own snapshot, so the finding cleared is answered as it stood. */
  async clear(chain: Blockchain, wallet: string): Promise<WalletShortfall | undefined> {
    const rows = await this.execute(
      `update refund_senders r
          set shortfall = null, shortfall_refund_id = null, shortfall_currency = null, shortfall_amount = null, shortfall_since = null, updated_at = clock_timestamp()
         from (select * from refund_senders where blockchain = ? and wallet = ? and shortfall is not null) old
        where r.blockchain = old.blockchain and r.wallet = old.wallet
        returning old.blockchain, old.wallet, old.shortfall, old.shortfall_refund_id, old.shortfall_currency, old.shortfall_amount::text, old.shortfall_since`,
      [chain, wallet],
    );
    return rows[0] ? findingOf(rows[0] as unknown as FindingRow) : undefined;
  }

  /** Every wallet's standing finding, oldest first: what operators read (metrics, docs/operations.md § Refunds). */
  async findings(): Promise<WalletShortfall[]> {
    const rows = await this.execute(
      `select blockchain, wallet, shortfall, shortfall_refund_id, shortfall_currency, shortfall_amount::text, shortfall_since
         from refund_senders where shortfall is not null order by shortfall_since, blockchain, wallet`,
      [],
    );
    return rows.map((r) => findingOf(r as unknown as FindingRow));
  }

  private execute(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    return this.em.fork().execute<Record<string, unknown>[]>(sql, params);
  }
}
