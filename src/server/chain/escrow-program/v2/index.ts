/** Escrow program v2's TypeScript client (docs/program.md describes the program). */
export { findEntryAddress, findReceiptAddress, findVaultAddress } from '#server/chain/escrow-program/pda';
export * from './accounts';
export * from './errors';
export * from './instructions';
export * from './layout';
export * from './payout-plan';
export * from './program';
export * from './propose-transaction';
