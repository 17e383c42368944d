import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import type { TransferRequest, TransferRequestStore } from '../../core/transfers/transfer-request';
import { TransferRequestSchema } from './schemas/transfer-request.schema';

/** Transfer requests on PostgreSQL (TransferRequestStore port); unique reference per tenant, unique token. */
export class TransferRequestRepository implements TransferRequestStore {
  constructor(private readonly em: EntityManager) {}

  async insert(request: TransferRequest): Promise<'inserted' | 'duplicate_reference'> {
    try {
      await this.em.fork().insert(TransferRequestSchema, request);
      return 'inserted';
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException && error.message.includes('transfer_requests_tenant_reference_unique')) return 'duplicate_reference';
      throw error;
    }
  }

  async findByReference(tenantId: string, reference: string): Promise<TransferRequest | undefined> {
    return (await this.em.fork().findOne(TransferRequestSchema, { tenantId, reference })) ?? undefined;
  }

  async findByToken(token: string): Promise<TransferRequest | undefined> {
    return (await this.em.fork().findOne(TransferRequestSchema, { token })) ?? undefined;
  }
}
