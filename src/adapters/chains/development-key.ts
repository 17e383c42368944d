/**
 * The key id stored with every address the development key derived (docs/chains.md § Deposit
 * addresses). A module of its own so that naming the key does not load the chain libraries.
 */
export const DEVELOPMENT_KEY_ID = 'development';
