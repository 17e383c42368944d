import { describeFuzz } from '../support/fuzz-suite';

// Every operation of GET /openapi.json against hostile inputs (test/support/fuzz-suite.ts).
describeFuzz('REST');
