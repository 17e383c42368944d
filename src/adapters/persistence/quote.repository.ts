import type { EntityManager } from '@mikro-orm/postgresql';
import type { Quote, QuoteReader, QuoteRepository } from '../../core/quotes/quote';
import { QuoteSchema } from './schemas/quote.schema';

/** Stored FX quotes (QuoteRepository and, for operators, QuoteReader ports). Pass a transaction's manager to read inside it. */
export class QuoteMikroRepository implements QuoteRepository, QuoteReader {
  constructor(private readonly em: EntityManager, private readonly forkPerCall = false) {}

  private get manager(): EntityManager {
    return this.forkPerCall ? this.em.fork() : this.em;
  }

  async insert(quote: Quote): Promise<void> {
    await this.manager.insert(QuoteSchema, quote);
  }

  async findForTenant(tenantId: string, quoteId: string): Promise<Quote | undefined> {
    return (await this.manager.findOne(QuoteSchema, { id: quoteId, tenantId }, { disableIdentityMap: true })) ?? undefined;
  }

  async findById(quoteId: string): Promise<Quote | undefined> {
    return (await this.manager.findOne(QuoteSchema, { id: quoteId }, { disableIdentityMap: true })) ?? undefined;
  }

  async consume(tenantId: string, quoteId: string, paymentId: string, at: Date): Promise<boolean> {
    // One conditional update: a concurrent use waits on the row lock, then finds used_at set.
    return (await this.manager.nativeUpdate(QuoteSchema, { id: quoteId, tenantId, usedAt: null }, { usedAt: at, paymentId })) === 1;
  }
}
