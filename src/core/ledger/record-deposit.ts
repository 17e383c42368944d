import type { Blockchain } from '../catalog/catalog';
import type { Clock } from '../shared/clock';
import { formatAmount, parseAmount, scaleOf, type Stablecoin } from '../shared/money';
import { err, ok, type Result } from '../shared/result';
import type { UnitOfWork } from '../shared/unit-of-work';

/** An onchain deposit to credit to a tenant (DESIGN.md 10; admin only). */
export interface DepositCommand {
  readonly currency: Stablecoin;
  /** Positive decimal, at most 6 places (JSON number or string). */
  readonly amount: number | string;
  readonly blockchain: Blockchain;
  /** Onchain transaction hash; the same hash is credited once per tenant. */
  readonly txHash: string;
}

/** Closed set of expected failures of a deposit. */
export type DepositErrorCode = 'validation_error' | 'duplicate_deposit';

/**
 * Credits a deposit: funding to available, as one balanced ledger transaction (DESIGN.md 10).
 * Errors: `validation_error` (amount), `duplicate_deposit` (this txHash was already credited).
 */
export async function recordDeposit(
  deps: { uow: UnitOfWork; clock: Clock },
  tenantId: string,
  command: DepositCommand,
): Promise<Result<{ currency: Stablecoin; amount: string; txHash: string }, DepositErrorCode>> {
  const amount = parseAmount(command.amount, 'amount', scaleOf(command.currency));
  if (!amount.ok) return amount;
  const formatted = formatAmount(amount.value, command.currency);
  return deps.uow.transact<{ currency: Stablecoin; amount: string; txHash: string }, DepositErrorCode>(async (tx) => {
    const posted = await tx.ledger.post({
      tenantId, currency: command.currency, from: 'funding', to: 'available', kind: 'deposit', amount: formatted,
      externalRef: `${command.blockchain}:${command.txHash}`, at: deps.clock.now(),
    });
    return posted === 'posted'
      ? ok({ currency: command.currency, amount: formatted, txHash: command.txHash })
      : err('duplicate_deposit', `Deposit ${command.txHash} was already credited`);
  });
}
