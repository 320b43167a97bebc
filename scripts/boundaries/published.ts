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
  'chat/announce': 'posting a system message into a dare’s room',
  'dares/dare-view': 'a dare as the API shows it (`toDare`, `findDare`)',
  'major-dare/current': 'the current major dare',
  'notifications/emit': 'writing a notification in the transaction of the event it reports (decision 074)',
  'judging/propose-nonce':
    'a vault’s propose nonce: its address, and its rent given back once the vault ends',
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

/** `feature/module` (no extension) is what its feature offers: its service or a published module. */
export function isPublic(module: string): boolean {
  const [feature, ...rest] = module.split('/');
  return (rest.length === 1 && rest[0] === 'service') || (feature !== undefined && module in PUBLISHED);
}
