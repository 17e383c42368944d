import type { Tenant } from '../auth/tenant';
import type { Blockchain } from '../catalog/catalog';
import { depositExternalRef, toDepositView, type Deposit } from '../deposits/deposit';
import type { Clock, IdGenerator } from '../shared/clock';
import { formatAmount, parseAmount, scaleOf, type Stablecoin } from '../shared/money';
import { err, ok, type Result } from '../shared/result';
import type { UnitOfWork } from '../shared/unit-of-work';
import { canonicalTxHash } from './tx-hash';

/** Largest transfer index a correction may name: a PostgreSQL integer. */
export const MAX_DEPOSIT_INDEX = 2_147_483_647;

/** An operator's correction: an onchain deposit to credit to a tenant (admin only). */
export interface DepositCommand {
  readonly currency: Stablecoin;
  /** Positive decimal, at most 6 places (JSON number or string). */
  readonly amount: number | string;
  readonly blockchain: Blockchain;
  /** Onchain transaction hash, as `canonicalTxHash` accepts it. */
  readonly txHash: string;
  /** Log index (BSC) or instruction position (Solana) of the transfer in the transaction; 0 when absent. */
  readonly index?: number;
}

/** A credited correction: `amount` a decimal string at scale 6 in `currency`, `txHash` in canonical form. */
export interface DepositReceipt {
  depositId: string;
  currency: Stablecoin;
  amount: string;
  txHash: string;
  index: number;
}

/** Closed set of expected failures of a deposit. */
export type DepositErrorCode = 'validation_error' | 'duplicate_deposit';

/** Ports of the deposit use cases. */
export interface DepositDeps {
  readonly uow: UnitOfWork;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/**
 * Credits an operator's correction (docs/decisions.md § Onchain deposits: corrections): a deposit
 * recorded `credited` at once under the same key as the chain watcher's, (blockchain, canonical
 * hash, index), with its ledger transaction (funding to available) and `deposit.credited` event,
 * in one transaction. A key already recorded by anyone (a correction, or the watcher, detected or
 * credited, for any tenant) is refused: the watcher credits what it detected itself.
 * Errors: `validation_error` (amount, txHash, index), `duplicate_deposit` (nothing is written).
 */
export async function recordDeposit(deps: DepositDeps, tenantId: string, command: DepositCommand): Promise<Result<DepositReceipt, DepositErrorCode>> {
  const txHash = canonicalTxHash(command.blockchain, command.txHash);
  if (!txHash.ok) return txHash;
  const index = command.index ?? 0;
  if (!Number.isInteger(index) || index < 0 || index > MAX_DEPOSIT_INDEX) {
    return err('validation_error', `index must be an integer from 0 to ${MAX_DEPOSIT_INDEX}`, { field: 'index' });
  }
  const amount = parseAmount(command.amount, 'amount', scaleOf(command.currency));
  if (!amount.ok) return amount;
  const key = index === 0 ? txHash.value : `${txHash.value} index ${index}`;
  const duplicate = err('duplicate_deposit', `Deposit ${key} on ${command.blockchain} was already recorded`);
  return deps.uow.transact<DepositReceipt, DepositErrorCode>(async (tx) => {
    const at = deps.clock.now();
    const deposit: Deposit = {
      id: deps.ids.next('dep'), tenantId, blockchain: command.blockchain, txHash: txHash.value, index, currency: command.currency,
      amount: formatAmount(amount.value, command.currency), remainderUnits: '0', token: null, sender: null, address: null, height: null,
      blockHash: null, status: 'credited', source: 'operator', ledgerTransactionId: deps.ids.next('ldg'), createdAt: at, creditedAt: at, droppedAt: null,
    };
    if ((await tx.deposits.insert(deposit)) === 'duplicate') return duplicate;
    await tx.outbox.append({
      id: deps.ids.uuid(), tenantId, type: 'deposit.credited', entityId: deposit.id, payload: { ...toDepositView(deposit, undefined) }, createdAt: at,
    });
    // Posted last: it locks the tenant's balance rows until commit.
    const posted = await tx.ledger.post({
      tenantId, currency: deposit.currency, from: 'funding', to: 'available', kind: 'deposit', amount: deposit.amount,
      externalRef: depositExternalRef(deposit), transactionId: deposit.ledgerTransactionId!, at,
    });
    return posted === 'posted'
      ? ok({ depositId: deposit.id, currency: deposit.currency, amount: deposit.amount, txHash: deposit.txHash, index })
      : duplicate;
  });
}

/** Closed set of expected failures of sandbox funding. */
export type SandboxFundingErrorCode = 'validation_error' | 'forbidden';

/**
 * Credits a sandbox tenant's opening balance (docs/decisions.md § Ledger, § Sandbox values): funding
 * to available as a `sandbox_funding` ledger transaction, with no transaction hash, because nothing
 * happened onchain. An internal operation of the service (startup seed, tests), reachable through
 * no API. Errors: `forbidden` (a live tenant: its money only ever comes from onchain deposits),
 * `validation_error` (amount).
 */
export async function fundSandboxTenant(
  deps: Omit<DepositDeps, 'ids'>,
  tenant: Tenant,
  funding: { currency: Stablecoin; amount: number | string },
): Promise<Result<{ currency: Stablecoin; amount: string }, SandboxFundingErrorCode>> {
  if (tenant.environment !== 'sandbox') return err('forbidden', 'Only sandbox tenants can be funded without an onchain deposit');
  const amount = parseAmount(funding.amount, 'amount', scaleOf(funding.currency));
  if (!amount.ok) return amount;
  const credited = { currency: funding.currency, amount: formatAmount(amount.value, funding.currency) };
  return deps.uow.transact<{ currency: Stablecoin; amount: string }, SandboxFundingErrorCode>(async (tx) => {
    const posted = await tx.ledger.post({
      tenantId: tenant.id, currency: credited.currency, from: 'funding', to: 'available', kind: 'sandbox_funding', amount: credited.amount,
      at: deps.clock.now(),
    });
    if (posted !== 'posted') throw new Error(`sandbox funding of ${tenant.id} was not posted: ${posted}`);
    return ok(credited);
  });
}
