/**
 * Solana Actions (blinks): a dare backed from wherever its link goes (docs/decisions/066). A GET
 * describes the dare and its buttons, a POST hands the wallet the very deposit Add to Pool builds
 * (signed and paid by the wallet alone: a stranger repeating it costs the platform nothing), and
 * the callback credits it through the vault notice, the one path every deposit made straight on
 * chain takes, so the callback and the payout job credit it exactly once between them.
 */
import type { ActionGetResponse, ActionPostResponse, CompletedAction } from '@solana/actions';
import { type Address, address, type Signature } from '@solana/kit';
import { effectiveStatus } from '#contract/dare-rules';
import type { Dare } from '#contract/dares';
import { POOL_ADD_MIN_SOL, STAKE_MAX_SOL } from '#contract/limits';
import { normalizeSol, solToLamports } from '#contract/money';
import { ConfirmationError, waitForConfirmation } from '#server/chain/confirmation';
import type { ChainPort } from '#server/chain/port';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { AppError, badRequest, notFound } from '#server/errors';
import type { DaresService } from '#server/features/dares/service';
import type { PaymentsService } from '#server/features/payments/service';
import { limit } from '#server/rate-limit/limit';
import type { RateLimiter } from '#server/rate-limit/port';
import { RATE_LIMITS } from '#server/rate-limits';
import { dareIconSvg } from './icon';
import { findBookedContribution } from './repo';

/** The amounts offered as buttons; the field takes any amount Add to Pool takes, up to the max. */
export const ACTION_AMOUNTS = ['0.05', '0.1', '0.5'] as const;
export const ACTION_AMOUNT_MAX_SOL = STAKE_MAX_SOL;
/** The Actions specification version these answers follow (the X-Action-Version header). */
export const ACTION_VERSION = '2.4';
/** How long the callback waits for the wallet's transaction to be confirmed. */
const CALLBACK_CONFIRM_MS = 30_000;

export const ACTION_MESSAGES = {
  dareNotFound: 'Dare not found',
  invalidAmount: `Enter an amount from ${POOL_ADD_MIN_SOL} to ${ACTION_AMOUNT_MAX_SOL} SOL`,
  invalidAccount: 'account must be a Solana address (base58)',
  invalidSignature: 'signature must be a transaction signature (base58)',
  notCredited: 'This transaction put nothing into this dare from that account',
  notConfirmed: 'The transaction is not confirmed yet; it will be credited once it is',
  failed: 'The transaction failed on chain; nothing was added',
} as const;

export interface ActionsDeps {
  db: Db;
  chain: ChainPort;
  clock: Clock;
  limiter: RateLimiter;
  dares: Pick<DaresService, 'getDare'>;
  payments: Pick<PaymentsService, 'buildWalletContribution'>;
  /** The vault notice (payouts): credits every deposit made straight into the vault, once. */
  noticeDeposits: (target: { escrowWallet: string; dareId: number }) => Promise<unknown>;
}

const actionPath = (dareId: number) => `/api/actions/dare/${dareId}`;

/** Why a dare takes no SOL now, or null while it does. */
function closedReason(dare: Dare, now: Date): string | null {
  if (!dare.escrowWallet) return 'This dare has no vault to add to';
  return effectiveStatus(dare, now) === 'active' ? null : 'This dare no longer accepts contributions';
}

function describe(dare: Dare): string {
  const pool = normalizeSol(dare.totalPool);
  const deadline = dare.deadline ? ` Deadline: ${new Date(dare.deadline).toUTCString()}.` : '';
  return (
    `${dare.description}\n\nPool: ${pool} SOL.${deadline} ` +
    'Backing adds your SOL to the pool held by the escrow program: it goes to the winner the judges name, ' +
    'or back to you if the dare ends without one. Your first contribution also lends about 0.0018 SOL of rent, returned when the dare ends.'
  );
}

export function createActionsService(deps: ActionsDeps) {
  const { db, chain, clock, limiter } = deps;
  let blockchainId: Promise<string> | null = null;

  async function dareOf(id: number): Promise<Dare> {
    try {
      return await deps.dares.getDare(id);
    } catch (error) {
      if (error instanceof AppError && error.status === 404) throw notFound(ACTION_MESSAGES.dareNotFound);
      throw error;
    }
  }

  return {
    /**
     * The cluster, as CAIP-2 names it (`solana:` and the genesis hash's first 32 characters, as the
     * SDK's BLOCKCHAIN_IDS): asked of the chain once.
     */
    blockchainId(): Promise<string> {
      blockchainId ??= chain.rpc
        .getGenesisHash()
        .send()
        .then((hash) => `solana:${hash.slice(0, 32)}`)
        .catch((error: unknown) => {
          blockchainId = null;
          throw error;
        });
      return blockchainId;
    },

    /** GET: the dare as an Action, its buttons disabled with the reason once it takes no SOL. */
    async describeDare(id: number, origin: string): Promise<ActionGetResponse> {
      const dare = await dareOf(id);
      const href = actionPath(dare.id);
      const reason = closedReason(dare, clock());
      return {
        type: 'action',
        icon: `${origin}${href}/icon.svg`,
        title: dare.title,
        description: describe(dare),
        label: 'Back this dare',
        ...(reason ? { disabled: true, error: { message: reason } } : {}),
        links: {
          actions: [
            ...ACTION_AMOUNTS.map((amount) => ({
              type: 'transaction' as const,
              label: `Add ${amount} SOL`,
              href: `${href}?amount=${amount}`,
            })),
            {
              type: 'transaction' as const,
              label: 'Add to Pool',
              href: `${href}?amount={amount}`,
              parameters: [
                {
                  type: 'number' as const,
                  name: 'amount',
                  label: `SOL (${POOL_ADD_MIN_SOL} to ${ACTION_AMOUNT_MAX_SOL})`,
                  required: true,
                  min: Number(POOL_ADD_MIN_SOL),
                  max: Number(ACTION_AMOUNT_MAX_SOL),
                },
              ],
            },
          ],
        },
      };
    },

    /** The dare's share image: its title and pool, drawn. */
    async icon(id: number): Promise<string> {
      return dareIconSvg(await dareOf(id));
    },

    /**
     * POST: the unsigned deposit of `amount` from `account`, its fee payer and only signer. Built
     * by Add to Pool's own builder with its checks; counted per address, as it reads the chain.
     */
    async buildDeposit(
      id: number,
      input: { account: string; amount: string; ip: string },
    ): Promise<ActionPostResponse> {
      await limit(
        limiter,
        `action:${input.ip}`,
        RATE_LIMITS.actionTransactions,
        'Too many requests; wait a minute',
      );
      const amount = input.amount.trim();
      if (
        !/^\d+(\.\d{1,9})?$/.test(amount) ||
        solToLamports(amount) < solToLamports(POOL_ADD_MIN_SOL) ||
        solToLamports(amount) > solToLamports(ACTION_AMOUNT_MAX_SOL)
      )
        throw badRequest(ACTION_MESSAGES.invalidAmount);
      const account = parseAddress(input.account, ACTION_MESSAGES.invalidAccount);
      const dare = await dareOf(id);
      const reason = closedReason(dare, clock());
      if (reason || !dare.escrowWallet) throw badRequest(reason ?? ACTION_MESSAGES.dareNotFound);
      const built = await deps.payments.buildWalletContribution({
        escrowWallet: dare.escrowWallet,
        from: account,
        amount,
      });
      return {
        type: 'transaction',
        transaction: built.transaction,
        message: `Adds ${normalizeSol(amount)} SOL to the pool of “${dare.title}”.`,
        links: { next: { type: 'post', href: `${actionPath(dare.id)}/completed` } },
      };
    },

    /**
     * links.next: waits for the wallet's transaction, credits the vault's straight deposits (the
     * notice: once, whoever runs it first), and answers what this account's transaction added.
     */
    async complete(
      id: number,
      input: { account: string; signature: string; ip: string; origin: string },
    ): Promise<CompletedAction> {
      await limit(
        limiter,
        `action-done:${input.ip}`,
        RATE_LIMITS.actionCallbacks,
        'Too many requests; wait a minute',
      );
      const account = parseAddress(input.account, ACTION_MESSAGES.invalidAccount);
      if (!/^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(input.signature))
        throw badRequest(ACTION_MESSAGES.invalidSignature);
      const signature = input.signature as Signature;
      const dare = await dareOf(id);
      if (!dare.escrowWallet) throw badRequest(ACTION_MESSAGES.notCredited);
      try {
        await waitForConfirmation(chain.rpc, signature, {
          commitment: 'confirmed',
          timeoutMs: CALLBACK_CONFIRM_MS,
        });
      } catch (error) {
        if (error instanceof ConfirmationError && error.reason === 'failed')
          throw badRequest(ACTION_MESSAGES.failed);
        if (error instanceof ConfirmationError) throw badRequest(ACTION_MESSAGES.notConfirmed);
        throw error;
      }
      const target = { escrowWallet: dare.escrowWallet, dareId: dare.id };
      let added = await findBookedContribution(db, { ...target, signature, payer: account });
      if (added === null) {
        await deps.noticeDeposits(target);
        added = await findBookedContribution(db, { ...target, signature, payer: account });
      }
      if (added === null) throw badRequest(ACTION_MESSAGES.notCredited);
      const now = await dareOf(id);
      return {
        type: 'completed',
        icon: `${input.origin}${actionPath(dare.id)}/icon.svg`,
        title: dare.title,
        label: 'Backed',
        description: `You added ${normalizeSol(added)} SOL. The pool is now ${normalizeSol(now.totalPool)} SOL.`,
      };
    },
  };
}

function parseAddress(text: string, message: string): Address {
  try {
    return address(text);
  } catch {
    throw badRequest(message);
  }
}

export type ActionsService = ReturnType<typeof createActionsService>;
