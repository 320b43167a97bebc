/**
 * Escrow v2's happy paths and its freezing case, deployed by the upgradeable loader, on LiteSVM and
 * on solana-bankrun (solana-program-test's BanksServer, Agave 1.18): the same scenario functions
 * (test/support/chain/escrow-v2-happy-paths.ts) run on each, and every lamport they report must be the same on both and
 * the exact amount below. Where bankrun has no binary (linux-arm64) its half is skipped, said in one
 * line; the LiteSVM half always runs.
 */
import { describe, expect } from 'vitest';
import {
  bankrunForTests,
  type Report,
  scenarioOnEveryRuntime,
} from '#server/chain/escrow-program/runtimes/compare';
import { SOL } from '#test/support/chain/escrow-chain';
import { v2ExecutableRentPayer, v2HappyPaths } from '#test/support/chain/escrow-v2-happy-paths';
import { ESCROW_V2_ERROR_CODE as E } from './errors';
import { ENTRY_V2_SIZE, VAULT_V2_SIZE } from './layout';

const { bankrun } = await bankrunForTests();

const FEE = 5000n;
/** Rent-exempt minimum: two years at 3,480 lamports a byte-year, 128 bytes of account header included. */
const rent = (size: number) => (BigInt(size) + 128n) * 3480n * 2n;
const ENTRY_RENT = rent(ENTRY_V2_SIZE);
const VAULT_RENT = rent(VAULT_V2_SIZE);

describe('escrow v2 on LiteSVM and on solana-bankrun', () => {
  scenarioOnEveryRuntime(
    bankrun,
    'pays (community, major 70/30, after a veto, past refund_after) and refunds',
    v2HappyPaths,
    (report: Report) => {
      const pot = 1_100_000_013n; // a major dare's stake 0.1 SOL + 7 and a deposit of 1 SOL + 6
      expect(report).toEqual({
        'entry rent': ENTRY_RENT,
        'community: vault while open': VAULT_RENT + SOL / 10n + SOL,
        // Every entrant paid one fee and got its entry's rent back; the winner got the pot.
        'community: creator': 10n * SOL - SOL / 10n,
        'community: payer': 9n * SOL,
        'community: winner': SOL - FEE + SOL / 10n + SOL,
        'community: loser': SOL - FEE,
        'community: vault': 0n,
        // 70% of the pot rounded down, plus the odd lamport; 30% rounded down.
        'major: first': SOL - FEE + 770_000_010n,
        'major: second': SOL - FEE + 330_000_003n,
        'major, one wallet twice: first': SOL - FEE + pot,
        'veto: veto count': 1n,
        'veto: named then vetoed': SOL - FEE,
        'veto: paid': SOL - FEE + SOL / 10n + SOL,
        'late: refund while the proposal stands (error code)': BigInt(E.ProposalPending),
        'late: winner': SOL - FEE + SOL / 10n,
        'cancel: creator': 10n * SOL,
        'cancel: payer': 10n * SOL,
        'cancel: entrant': SOL - FEE,
        'cancel: vault': 0n,
        // The moderator's key signs cancel and pays nothing.
        canceller: SOL,
        'expired: creator': 10n * SOL,
        'expired: payer': 10n * SOL,
        'expired: vault': 0n,
        // Signatures the platform paid for: creates 2, deposits 2, proposes 1 + judges, veto and
        // cancel 2: 7 (community) + 8 + 8 (major) + 12 (veto) + 5 (late) + 6 (cancel) + 4 (expired).
        'platform: spent (fees only)': FEE * 50n,
        // Execute and every close, one transaction each, and the refused refund: 28 transactions.
        'stranger: spent (fees only)': FEE * 28n,
      });
    },
  );

  const frozenClose = 'close entry of the frozen entrant';
  scenarioOnEveryRuntime(
    bankrun,
    "an executable rent payer holds up only its own entry's close; execute and every other close succeed",
    v2ExecutableRentPayer,
    (report, runtime) => {
      expect(report).toMatchObject({
        execute: 'ok',
        'close receipt of the creator': 'ok',
        'close receipt of the payer': 'ok',
        'close entry of the winner': 'ok',
        winner: SOL - FEE + SOL / 10n + SOL,
        creator: 10n * SOL - SOL / 10n,
        payer: 9n * SOL,
        'entry rent': ENTRY_RENT,
      });
      if (runtime === 'bankrun') {
        // Agave 1.18 refuses to credit an executable account: that close fails and moves nothing;
        // the vault, holding only its rent, waits for it.
        expect(report).toMatchObject({
          [frozenClose]:
            'failed: Error processing Instruction 0: instruction changed the balance of an executable account',
          'the frozen entrant got back': 0n,
          'frozen entry after the closes': ENTRY_RENT,
          'vault after the closes': VAULT_RENT,
          'vault rent': VAULT_RENT,
        });
      } else {
        // LiteSVM 1.5 credits it: the entry's rent reaches the executable account, the vault closes.
        expect(report).toMatchObject({
          [frozenClose]: 'ok',
          'the frozen entrant got back': ENTRY_RENT,
          'frozen entry after the closes': 0n,
          'vault after the closes': 0n,
          'vault rent': 0n,
        });
      }
    },
    {
      differs: [
        frozenClose,
        'the frozen entrant got back',
        'frozen entry after the closes',
        'vault after the closes',
        'vault rent',
      ],
    },
  );
});
