import { Field, ID, ObjectType } from 'type-graphql';
import type { ApiKeyScope } from '../../core/auth/api-key';
import { ApiKeyScopeEnum } from './enums.type';

/** `me`: who is calling: the tenant and the key in use. */
@ObjectType('Me', { description: 'The caller: its tenant and the API key in use' })
export class MeType {
  @Field(() => ID, { description: 'ten_-prefixed tenant id' })
  tenantId!: string;

  @Field(() => ID, { description: 'key_-prefixed id of the API key in use (what an admin revokes)' })
  keyId!: string;

  @Field(() => ApiKeyScopeEnum, { description: 'What the key may do' })
  scope!: ApiKeyScope;
}
