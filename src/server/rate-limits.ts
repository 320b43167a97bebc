import { CHAT_LIMITS } from '#contract/chat-limits';
import type { RateLimit } from './rate-limit/port';

const MINUTE = 60_000;

/**
 * Every rate limit the server enforces: how many events one counted party (named on each line)
 * may cause per window. Counted once for the whole deployment in Redis with REDIS_URL, else in each
 * instance's memory (rate-limit/). While Redis does not answer, sign-in and payment limits refuse
 * (503) and the others count per instance (`ifStoreDown`). The two sign-in limits are defaults the
 * operator may change (RATE_LIMIT_* in config.ts, which the auth service reads); the chat's are
 * part of the WebSocket contract (contract/chat-limits.ts).
 */
export const RATE_LIMITS = {
  /** Per IP address: sign-in challenges, wallet and password logins, registrations. */
  signInRequests: { limit: 100, windowMs: MINUTE, ifStoreDown: 'refuse' },
  /**
   * Per account and address together; ten times as many per address, and per account from addresses
   * it never signed in from (`failedLoginRules`, features/auth/failed-logins.ts).
   */
  failedLogins: { limit: 10, windowMs: 15 * MINUTE, ifStoreDown: 'refuse' },
  /**
   * Per account, once its account-wide failures are used up: attempts from addresses it never
   * signed in from, over them all (a slow backoff, not a lock: decision 060).
   */
  failedLoginBackoff: { limit: 2, windowMs: MINUTE, ifStoreDown: 'refuse' },
  /** Per IP address. */
  balanceChecks: { limit: 120, windowMs: MINUTE, ifStoreDown: 'count-locally' },
  /** Per user: Create Dare step 3. */
  escrowWallets: { limit: 20, windowMs: MINUTE, ifStoreDown: 'refuse' },
  /** Per user: the unsigned transfers built for stakes and pool additions. */
  paymentIntents: { limit: 30, windowMs: MINUTE, ifStoreDown: 'refuse' },
  /** Per user: signed transfers relayed to the chain. */
  relayedTransactions: { limit: 30, windowMs: MINUTE, ifStoreDown: 'refuse' },
  /**
   * Per user: entry transactions handed out (POST /api/dares/{id}/enter-transaction) and 'Refund
   * me' transactions built; each reads the chain, and an entry is signed by the platform fee payer.
   */
  walletTransactions: { limit: 20, windowMs: MINUTE, ifStoreDown: 'refuse' },
  /** Per user: signed entries and refunds relayed to the chain (submit, refund). */
  relayedWalletTransactions: { limit: 20, windowMs: MINUTE, ifStoreDown: 'refuse' },
  /** Per IP address: test SOL on the embedded chain. */
  airdrops: { limit: 30, windowMs: MINUTE, ifStoreDown: 'refuse' },
  /** Per IP address: lookups that reach the chain (on a real cluster each spends RPC quota). */
  transactionLookups: { limit: 30, windowMs: MINUTE, ifStoreDown: 'count-locally' },
  /**
   * Per IP address: Solana Actions deposits built for any wallet (POST /api/actions/dare/{id}); no
   * account needed, each reads the chain.
   */
  actionTransactions: { limit: 30, windowMs: MINUTE, ifStoreDown: 'refuse' },
  /** Per IP address: Actions callbacks, each waits on the chain and may read the vault's history. */
  actionCallbacks: { limit: 30, windowMs: MINUTE, ifStoreDown: 'refuse' },
  /** Per user. */
  videoUploads: { limit: 20, windowMs: 10 * MINUTE, ifStoreDown: 'count-locally' },
  /** Per IP address, over every account: one address cannot multiply free accounts' uploads. */
  videoUploadsPerAddress: { limit: 30, windowMs: 10 * MINUTE, ifStoreDown: 'count-locally' },
  /** Per user, across every socket. */
  chatMessages: {
    limit: CHAT_LIMITS.ratePerWindow,
    windowMs: CHAT_LIMITS.rateWindowMs,
    ifStoreDown: 'count-locally',
  },
  /**
   * Per socket: auth and join frames, each a database lookup; past it the socket is closed (1008).
   * Counted by the socket itself (chat/socket.ts): a socket lives on one instance, so that is exact.
   */
  chatSocketLookups: {
    limit: CHAT_LIMITS.lookupsPerWindow,
    windowMs: CHAT_LIMITS.lookupWindowMs,
    ifStoreDown: 'count-locally',
  },
  /**
   * Per client address: chat sockets opened (each an upgrade, a slot and a sign-in lookup); past it
   * the upgrade is refused with 429 before it is made, so closing and reopening cannot repeat them.
   */
  chatOpensPerAddress: {
    limit: CHAT_LIMITS.opensPerAddress,
    windowMs: CHAT_LIMITS.openWindowMs,
    ifStoreDown: 'count-locally',
  },
  /** The same, per second: an address's sockets do not all open again in one moment. */
  chatOpensPerAddressPerSecond: {
    limit: CHAT_LIMITS.opensPerAddressPerSecond,
    windowMs: 1_000,
    ifStoreDown: 'count-locally',
  },
  /** Per client address, across its sockets: room joins (each may cost a lookup and a presence update). */
  chatJoinsPerAddress: {
    limit: CHAT_LIMITS.joinsPerAddress,
    windowMs: CHAT_LIMITS.joinWindowMs,
    ifStoreDown: 'count-locally',
  },
  /** Per account: verification mails asked for (PUT /api/profile/email). */
  verificationMailsPerAccount: { limit: 5, windowMs: 60 * MINUTE, ifStoreDown: 'refuse' },
  /** Per email address, whoever asks: a stranger cannot make the platform mail an address that did not ask. */
  verificationMailsPerAddress: { limit: 3, windowMs: 24 * 60 * MINUTE, ifStoreDown: 'refuse' },
} as const satisfies Record<string, RateLimit>;

/**
 * Per client address: chat sockets open at once, on every instance together (a slot each, see
 * RateLimiter.takeSlot); past it a new socket is closed with 1013 at once.
 */
export const CHAT_SOCKETS_PER_ADDRESS = CHAT_LIMITS.socketsPerAddress;
