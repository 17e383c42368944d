import type { Tenant } from '../auth/tenant';
import type { Blockchain } from '../catalog/catalog';
import type { Clock, IdGenerator } from '../shared/clock';
import { formatAmount, parseAmount, scaleOf, type Stablecoin } from '../shared/money';
import { err, ok, type Result } from '../shared/result';
import type { UnitOfWork } from '../shared/unit-of-work';
import { canonicalTxHash } from './tx-hash';

/** An onchain deposit to credit to a tenant (admin only). */
export interface DepositCommand {
  readonly currency: Stablecoin;
  /** Positive decimal, at most 6 places (JSON number or string). */
  readonly amount: number | string;
  readonly blockchain: Blockchain;
  /** Onchain transaction hash, as `canonicalTxHash` accepts it; credited once across all tenants. */
  readonly txHash: string;
}

/** A credited deposit: `amount` a decimal string at scale 6 in `currency`, `txHash` in canonical form. */
export interface DepositReceipt {
  currency: Stablecoin;
  amount: string;
  txHash: string;
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
 * Credits an onchain deposit: funding to available, as one balanced ledger transaction written
 * with its row in the deposit register (docs/decisions.md § Ledger). The hash is checked and
 * canonicalised per chain first; a (blockchain, hash) pair is credited once across all tenants.
 * Errors: `validation_error` (amount, txHash), `duplicate_deposit` (already credited, to any
 * tenant; nothing is written).
 */
export async function recordDeposit(deps: DepositDeps, tenantId: string, command: DepositCommand): Promise<Result<DepositReceipt, DepositErrorCode>> {
  const txHash = canonicalTxHash(command.blockchain, command.txHash);
  if (!txHash.ok) return txHash;
  const amount = parseAmount(command.amount, 'amount', scaleOf(command.currency));
  if (!amount.ok) return amount;
  const receipt: DepositReceipt = { currency: command.currency, amount: formatAmount(amount.value, command.currency), txHash: txHash.value };
  const duplicate = err('duplicate_deposit', `Deposit ${txHash.value} on ${command.blockchain} was already credited`);
  return deps.uow.transact<DepositReceipt, DepositErrorCode>(async (tx) => {
    const at = deps.clock.now();
    const ledgerTransactionId = deps.ids.next('ldg');
    const registered = await tx.deposits.insert({
      id: deps.ids.next('dep'), tenantId, blockchain: command.blockchain, txHash: txHash.value, currency: receipt.currency,
      amount: receipt.amount, ledgerTransactionId, createdAt: at,
    });
    if (registered === 'duplicate') return duplicate;
    // Posted last: it locks the tenant's balance rows until commit.
    const posted = await tx.ledger.post({
      tenantId, currency: receipt.currency, from: 'funding', to: 'available', kind: 'deposit', amount: receipt.amount,
      externalRef: `${command.blockchain}:${txHash.value}`, transactionId: ledgerTransactionId, at,
    });
    return posted === 'posted' ? ok(receipt) : duplicate;
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
