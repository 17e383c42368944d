import { describeFuzz } from '../support/fuzz-suite';

// Every Query and Mutation field of the GraphQL schema against hostile inputs (test/support/fuzz-suite.ts).
describeFuzz('GraphQL');
