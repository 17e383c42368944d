import { Resolver } from 'type-graphql';

/** Placeholder: its fields are being written (issues 5 and 6, GraphQL items). */
@Resolver()
export class WebhookResolver {}
