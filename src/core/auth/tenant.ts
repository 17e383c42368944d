/** A tenant: one wallet issuer using the service (DESIGN.md 9). `ten_<ULID>`. */
export class Tenant {
  id!: string;
  name!: string;
  environment!: 'sandbox' | 'live';
  createdAt!: Date;

  constructor(props: { [K in keyof Tenant]: Tenant[K] }) {
    Object.assign(this, props);
  }
}
