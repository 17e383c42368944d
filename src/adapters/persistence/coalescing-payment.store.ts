import type { Payment, PaymentStatus } from '../../core/payments/payment';
import type { NewPaymentWrite, PaymentMoveWrite, PaymentPatch, PaymentStore } from '../../core/payments/payment-ports';
import type { GuardedPatch } from './payment-move.statement';
import type { PaymentTxRepository } from './payment.repository';

interface Waiting<I, O> {
  readonly input: I;
  readonly resolve: (output: O) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The PaymentStore of the payout worker's batch transactions (docs/decisions.md § Performance):
 * the units of a batch run side by side, and the moves and the patches they ask for before the
 * event loop turns are sent together, as one statement of moves and one of patches, instead of one
 * round trip each. Each caller still gets its own payment's result. A payment asked for twice goes
 * into a later statement, so each statement touches a payment once. When a statement fails, every
 * caller waiting on it gets the error: the batch then rolls back and its units run alone, where
 * each gets its precise answer (e.g. `ledger_refused`).
 */
export class CoalescingPaymentStore implements PaymentStore {
  private moves: Waiting<PaymentMoveWrite, Payment | 'moved_concurrently'>[] = [];
  private patches: Waiting<GuardedPatch, Payment | undefined>[] = [];
  private flushing?: Promise<void>;

  constructor(private readonly repository: PaymentTxRepository) {}

  create(write: NewPaymentWrite): Promise<'created' | 'duplicate_reference' | 'insufficient_funds'> {
    return this.repository.create(write);
  }

  update(paymentId: string, expectedStatus: PaymentStatus, patch: PaymentPatch): Promise<Payment | undefined> {
    return this.enqueue(this.patches, { paymentId, from: expectedStatus, patch });
  }

  move(write: PaymentMoveWrite): Promise<Payment | 'moved_concurrently' | 'ledger_refused'> {
    return this.enqueue(this.moves, write);
  }

  private enqueue<I, O>(queue: Waiting<I, O>[], input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      // After this turn of the event loop, so the calls the batch's units make together share a statement.
      this.flushing ??= new Promise<void>((done) => setImmediate(() => void this.flush().finally(done)));
    });
  }

  private async flush(): Promise<void> {
    while (this.moves.length > 0 || this.patches.length > 0) {
      const moves = takeOnePerPayment(this.moves, (w) => w.paymentId);
      const patches = takeOnePerPayment(this.patches, (p) => p.paymentId);
      if (moves.length > 0) await settle(moves, (inputs) => this.repository.moveMany(inputs));
      if (patches.length > 0) await settle(patches, (inputs) => this.repository.updateMany(inputs));
    }
    this.flushing = undefined;
  }
}

/** Removes from `queue` and returns its calls in order, the first call for each payment only. */
function takeOnePerPayment<I, O>(queue: Waiting<I, O>[], paymentOf: (input: I) => string): Waiting<I, O>[] {
  const seen = new Set<string>();
  const taken: Waiting<I, O>[] = [];
  const left: Waiting<I, O>[] = [];
  for (const call of queue) {
    const id = paymentOf(call.input);
    if (seen.has(id)) left.push(call);
    else {
      seen.add(id);
      taken.push(call);
    }
  }
  queue.splice(0, queue.length, ...left);
  return taken;
}

/** Runs one statement for `calls` and answers each caller with its own result, or all with its error. */
async function settle<I, O>(calls: Waiting<I, O>[], run: (inputs: I[]) => Promise<O[]>): Promise<void> {
  try {
    const outputs = await run(calls.map((c) => c.input));
    calls.forEach((c, i) => c.resolve(outputs[i]!));
  } catch (error) {
    for (const c of calls) c.reject(error);
  }
}
