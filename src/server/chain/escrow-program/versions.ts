/**
 * What differs between the escrow programs' versions, in one table, for the tools that must work
 * on every vault DarePool ever made (`npm run refund-dare`): the committed build a deployed
 * program is compared with, and the states a vault can stand in that stop a refund. Everything
 * else a refund needs (receipts, entries, refund, close_entry) is the same in both
 * (docs/program.md), and `decodeAnyVault` tells the layouts apart by size (144 and 424 bytes).
 */
import type { AnyVault } from './any-program';
import { ESCROW_PROGRAM_PATH, readEscrowProgram } from './program';
import { ESCROW_PROGRAM_V2_PATH, readEscrowProgramV2 } from './v2/program';

export interface EscrowProgramVersion {
  version: 1 | 2;
  /** The committed build of this version, and where it is. */
  build(): Uint8Array;
  buildFile: string;
  /** Why no refund can be sent now, for a state only this version has (null: none stops it). */
  refundBlockedBy(vault: AnyVault): string | null;
}

const isoTime = (unixSeconds: bigint) => new Date(Number(unixSeconds) * 1000).toISOString();

export const ESCROW_PROGRAM_VERSIONS: Record<1 | 2, EscrowProgramVersion> = {
  1: {
    version: 1,
    build: readEscrowProgram,
    buildFile: ESCROW_PROGRAM_PATH,
    refundBlockedBy: () => null,
  },
  2: {
    version: 2,
    build: readEscrowProgramV2,
    buildFile: ESCROW_PROGRAM_V2_PATH,
    // A standing proposal holds every refund until it is executed or vetoed (E_PROPOSAL_PENDING).
    refundBlockedBy(vault) {
      const proposal = vault.judging?.proposal;
      if (vault.status !== 'proposed' || !proposal) return null;
      return `the judges named ${proposal.winners.join(' and ')}: the payout is due at ${isoTime(proposal.executesAt)} and nothing can be refunded unless the guardian vetoes it before then`;
    },
  },
};
