import { EntitySchema } from '@mikro-orm/core';
import { Quote } from '../../../core/quotes/quote';
import { PlainDecimalType } from './plain-decimal.type';

/** Table `quotes`: stored FX quotes (docs/decisions.md § FX quotes and the quote lock). */
export const QuoteSchema = new EntitySchema<Quote>({
  class: Quote,
  tableName: 'quotes',
  properties: {
    id: { type: 'string', primary: true, length: 40 },
    tenantId: { type: 'string', length: 40, index: true },
    fiatCurrency: { type: 'string', length: 3 },
    stablecoin: { type: 'string', length: 4 },
    fiatAmount: { type: PlainDecimalType },
    exchangeRate: { type: PlainDecimalType },
    payoutFee: { type: PlainDecimalType },
    convertedAmount: { type: PlainDecimalType },
    paymentMethod: { type: 'string', length: 10 },
    country: { type: 'string', length: 2, nullable: true },
    blockchain: { type: 'string', length: 10 },
    optionalIssuerFee: { type: 'string', length: 3 },
    expiresAt: { type: 'Date', columnType: 'timestamptz', index: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    usedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    paymentId: { type: 'string', length: 40, nullable: true },
    // How the quote was priced (docs/decisions.md § FX quotes: pricing records); null on older quotes.
    pricing: { type: 'json', columnType: 'jsonb', nullable: true },
  },
});
