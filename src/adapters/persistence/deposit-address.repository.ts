import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import type { Blockchain } from '../../core/catalog/catalog';
import type { DepositAddress, DepositAddressRegistry } from '../../core/deposits/deposit-ports';
import { addressKey, addressOf } from './deposit-rows';

/** The index sequence of each chain (one per chain, created by the deposits migration). */
const INDEX_SEQUENCES: Record<Blockchain, string> = { BSC: 'deposit_address_index_bsc', SOLANA: 'deposit_address_index_solana' };

/**
 * The deposit address registry (DepositAddressRegistry port; docs/decisions.md § Onchain
 * deposits: addresses) on `deposit_addresses`: indexes drawn from a per-chain sequence (a value is
 * never drawn twice, even when its insert rolls back), the tenant's address kept unique per chain
 * and key, an address unique per chain.
 */
export class DepositAddressRepository implements DepositAddressRegistry {
  constructor(private readonly em: EntityManager) {}

  async find(tenantId: string, chain: Blockchain, keyId: string): Promise<DepositAddress | undefined> {
    const rows = await this.execute('select * from deposit_addresses where tenant_id = ? and blockchain = ? and key_id = ?', [tenantId, chain, keyId]);
    return rows[0] ? addressOf(rows[0]) : undefined;
  }

  async allocateIndex(chain: Blockchain): Promise<number> {
    const [row] = await this.execute(`select nextval('${INDEX_SEQUENCES[chain]}') as index`, []);
    return Number(row!.index);
  }

  async insert(a: DepositAddress): Promise<'inserted' | 'exists'> {
    try {
      const rows = await this.execute(
        `insert into deposit_addresses (blockchain, derivation_index, tenant_id, key_id, address, address_key, created_at)
         values (?, ?, ?, ?, ?, ?, ?) on conflict (tenant_id, blockchain, key_id) do nothing returning derivation_index`,
        [a.blockchain, a.index, a.tenantId, a.keyId, a.address, addressKey(a.blockchain, a.address), a.createdAt],
      );
      return rows.length === 1 ? 'inserted' : 'exists';
    } catch (error) {
      // The same address or index for someone else: a deriver or sequence fault, never handed out.
      if (error instanceof UniqueConstraintViolationException) throw new Error(`${a.blockchain} deposit address ${a.index} already serves another tenant`);
      throw error;
    }
  }

  /** Whether `address` is a deposit address of any tenant on `chain` (the OwnDepositAddresses port): one probe of the address's unique key. */
  async isDepositAddress(chain: Blockchain, address: string): Promise<boolean> {
    return (await this.execute('select 1 from deposit_addresses where blockchain = ? and address_key = ? limit 1', [chain, addressKey(chain, address)])).length > 0;
  }

  async onChain(chain: Blockchain, keyId: string): Promise<DepositAddress[]> {
    return (await this.execute('select * from deposit_addresses where blockchain = ? and key_id = ? order by derivation_index', [chain, keyId])).map(addressOf);
  }

  private execute(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    return this.em.fork().execute<Record<string, unknown>[]>(sql, params);
  }
}
