/**
 * Node's Web Crypto key types under the global names the DOM gives them. Node has these objects
 * (globalThis.crypto.subtle makes them), but @types/node 20 names them only in `node:crypto`'s
 * `webcrypto` namespace, while @solana/kit's types (generateKeyPair, signBytes) and ours use the
 * global `CryptoKey`/`CryptoKeyPair`. The server project has no DOM library
 * (docs/decisions/079-tsconfig-split-and-node-support.md), so it declares them here, as later
 * @types/node versions do.
 */
import type { webcrypto } from 'node:crypto';

declare global {
  interface CryptoKey extends webcrypto.CryptoKey {}
  interface CryptoKeyPair extends webcrypto.CryptoKeyPair {}
}
