/**
 * What a server feature offers the others besides its `service.ts` (docs/decisions/019-feature-layers.md,
 * "A feature's repo is private"): each module named for what it publishes, with what that is. Any
 * other file of a feature, at any depth, is its own. Publishing a module is a decision: add it here
 * and to 019's table together.
 */
export const PUBLISHED: Readonly<Record<string, string>> = {
  'auth/user': '`UserRow`, `requireWallet`',
  'auth/public-user': '`toPublicUser`: the only way a user leaves the server',
  'auth/sessions': 'the session lookup (HTTP plugin, chat socket)',
  'auth/tokens': 'hashing an opaque token as sessions store it (the chat socket)',
  'auth/promote': 'granting or taking admin rights (users, `npm run admin`)',
  'auth/password': 'hashing a password as accounts store it (the row builders of `db/factories.ts`)',
  'chat/announce': 'posting a system message into a dare’s room',
  'chat/bus': 'the chat’s message bus, one instance’s or all instances’ (the demo seed’s chat)',
  'dares/dare-view': 'a dare as the API shows it (`toDare`, `findDare`)',
  'major-dare/current': 'the current major dare',
  'notifications/emit': 'writing a notification in the transaction of the event it reports (decision 074)',
  'notifications/tokens':
    'the mail tokens (verification, unsubscribe), built once with the services (decision 074)',
  'judging/propose-nonce':
    'a vault’s propose nonce: its address, and its rent given back once the vault ends',
  'payouts/fee-payer':
    'the fee payer’s balance: funded at start-up and by the demo seed, its status for `/api/health`',
  'payments/crediting/credit-payment': 'crediting a payment (`creditPayment`)',
  'payments/crediting/book-payment': 'booking a payment (`bookPayment`)',
  'payments/crediting/outside-deposits':
    'crediting deposits made straight on chain (`creditOutsideDeposits`, decision 058)',
  'payments/intents/escrow-reservations': 'escrow reservations',
  'payments/intents/our-vault': 'whether a vault is ours in every term (`createOurVaults`, decision 048)',
  'payments/crediting/hold-refused-payment': '`holdRefusedPayment` around a step 7',
  'settings/switches': 'System Controls switches, `requireDareCreationEnabled`',
  'submissions/visibility': 'statuses anyone may see',
  'submissions/video-access': 'who may play which video, signed links',
  'submissions/video-url': 'the storage key inside an upload URL',
  'submissions/proof-hash': 'a proof’s fingerprint',
};

/**
 * What the composition root, `src/server/routes.ts`, registers of a feature besides its public
 * modules: every feature's `routes.ts` and `lifecycle.ts` (by pattern), and these named plugins. No
 * other module outside the features imports them.
 */
export const REGISTERED_PLUGINS: Readonly<Record<string, string>> = {
  'chat/live-chat': 'the chat socket',
  'notifications/open': 'the live notifications and the delivery job (decision 074)',
  'share/og-meta': 'the link previews of shared pages',
  'videos/janitor': 'the job that deletes abandoned uploads',
};
