/** The DarePool escrow program's TypeScript client: docs/program.md describes the program. */
export * from './accounts';
export * from './app-transactions';
export * from './chain-clock';
export * from './decode';
export * from './deploy';
export * from './errors';
export * from './instructions';
export * from './keypair-file';
export * from './layout';
export * from './pda';
export * from './program';
export * from './vault-records';
