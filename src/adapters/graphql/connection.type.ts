import { Field, ObjectType, type ClassType } from 'type-graphql';

/**
 * Relay's PageInfo (docs/api.md § Lists and paging). Cursors are opaque strings; `startCursor` and
 * `endCursor` are those of the page's first and last edges, null on an empty page.
 */
@ObjectType('PageInfo', { description: 'Where a page sits in its list: pass endCursor as `after` for the next page, startCursor as `before` for the previous one where the list takes `before`' })
export class PageInfoType {
  @Field(() => Boolean, { description: 'True when entries follow this page (paging forward)' })
  hasNextPage!: boolean;

  @Field(() => Boolean, { description: 'True when entries precede this page (paging backward with last/before); false when paging forward' })
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true, description: "Cursor of the page's first edge; null on an empty page" })
  startCursor!: string | null;

  @Field(() => String, { nullable: true, description: "Cursor of the page's last edge; null on an empty page" })
  endCursor!: string | null;
}

/** One edge of a connection: an entry and the cursor that resumes the list just after it. */
export interface Edge<T> {
  node: T;
  cursor: string;
}

/** A Relay connection's value: `edges`, the same entries as `nodes` (a shortcut), and `pageInfo`. */
export interface Connection<T> {
  edges: Edge<T>[];
  nodes: T[];
  pageInfo: PageInfoType;
}

/**
 * Declares `<Name>Edge` and `<Name>Connection` for entries of GraphQL type `node` (Relay cursor
 * connections). `what` and `many` name one entry and several in the descriptions ("payment",
 * "payments"); `order` says how the list is sorted. Call once per type, at module load.
 */
export function connectionType<T>(node: ClassType, name: string, what: string, many: string, order: string): ClassType<Connection<T>> {
  @ObjectType(`${name}Edge`, { description: `One ${what} and its cursor` })
  class EdgeType implements Edge<T> {
    @Field(() => node, { description: `The ${what}` })
    node!: T;

    @Field(() => String, { description: `Opaque; pass as \`after\` to continue after this ${what}` })
    cursor!: string;
  }

  @ObjectType(`${name}Connection`, { description: `One page of ${many}, ${order}` })
  class ConnectionType implements Connection<T> {
    @Field(() => [EdgeType], { description: `The ${many} of this page with their cursors` })
    edges!: Edge<T>[];

    @Field(() => [node], { description: 'The same entries as edges, without cursors' })
    nodes!: T[];

    @Field(() => PageInfoType, { description: 'Cursors and whether more entries follow' })
    pageInfo!: PageInfoType;
  }
  return ConnectionType;
}
