// No zod here: the chat panel on Home imports these, and zod stays out of the first load.

export const CHAT_LIMITS = {
  messageMax: 500,
  /** Messages per page of history. */
  historyPage: 50,
  /** Per user, across every socket and instance-local: 5 messages in 10 s. */
  ratePerWindow: 5,
  rateWindowMs: 10_000,
  /** A frame larger than this closes the socket (1009). */
  maxFrameBytes: 4096,
  /** Client reconnects: at most 5 attempts, waiting 1 s x the attempt number (docs/product.md#chat-connection). */
  reconnectAttempts: 5,
  reconnectStepMs: 1000,
  /** Per connection: auth and join frames (each a database lookup) in a window; more closes it (1008). */
  lookupsPerWindow: 20,
  lookupWindowMs: 10_000,
  /**
   * Per connection: frames of any kind in a window, counted on arrival before anything is read or
   * looked up; more closes it (1008). A page sends a few (auth, joins, at most 5 messages).
   */
  framesPerWindow: 40,
  frameWindowMs: 10_000,
  /** Per connection: frames waiting for the ones before them (lookups, stores); more closes it (1008). */
  maxQueuedFrames: 40,
  /**
   * Per client address, across every instance: open sockets (more are closed with 1013 at once),
   * and joins in a window (more answer an error event). A browser tab holds one socket and joins a
   * few rooms; these leave room for a household or an office behind one address.
   */
  socketsPerAddress: 50,
  /** Sockets opened in a window (a closed one opened again counts again): more are closed with 1013. */
  opensPerAddress: 300,
  openWindowMs: 60_000,
  /**
   * Sockets opened per address in one second: an address's sockets closed at once (a flood cut
   * off, a server restart) cannot all open again in the same moment, each an upgrade and a sign-in.
   */
  opensPerAddressPerSecond: 5,
  joinsPerAddress: 300,
  joinWindowMs: 60_000,
} as const;

export const CHAT_MESSAGES = {
  empty: 'Message cannot be empty',
  tooLong: `Messages are at most ${CHAT_LIMITS.messageMax} characters`,
  notAuthenticated: 'Connect your wallet or log in to chat',
  authFailed: 'Your session has ended. Please sign in again.',
  rateLimited: 'You are sending messages too fast; wait a moment',
  dareNotFound: 'Dare not found',
  invalidFrame: 'Unreadable message',
  tooManyRequests: 'Too many requests on this connection',
  serverRestarting: 'The server is restarting; reconnect',
  nulCharacter: 'Messages cannot contain NUL characters (\\u0000)',
  tooManySockets: 'Too many chat connections from your network; close some tabs and try again',
  tooManyJoins: 'Too many chat rooms opened from your network; try again in a minute',
} as const;

/** RFC 6455 'Try Again Later': the socket an address opened past its allowance. */
export const TRY_AGAIN_LATER_CLOSE_CODE = 1013;

/**
 * The close code a chat socket gets when its server shuts down (RFC 6455 'Service Restart'): the
 * web app reconnects, behind a load balancer to another instance.
 */
export const SERVICE_RESTART_CLOSE_CODE = 1012;

/** The name a system message is shown under. */
export const SYSTEM_SENDER = 'DarePool';
