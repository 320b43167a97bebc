import { createHmac } from 'node:crypto';
import { createKeyPairSignerFromPrivateKeyBytes, type KeyPairSigner } from '@solana/kit';
import { HDKey } from 'micro-key-producer/slip10.js';

/** The BIP-44 path Solana wallets use; one hardened account index per escrow. */
export function escrowDerivationPath(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31)
    throw new Error(`Invalid escrow index: ${index}`);
  return `m/44'/501'/${index}'/0'`;
}

/**
 * The only code that turns the master seed into keys. Nothing outside src/server/chain reads the
 * seed; callers get signers for a given escrow index and never see key bytes.
 */
export function createEscrowKeys(masterSeed: Uint8Array) {
  if (masterSeed.length < 16 || masterSeed.length > 64)
    throw new Error('The escrow master seed must be 16 to 64 bytes');
  const root = HDKey.fromMasterSeed(masterSeed);
  /** The private key bytes are zeroed once imported; they stay inside the non-extractable CryptoKey. */
  async function signerAt(path: string): Promise<KeyPairSigner> {
    const privateKey = root.derive(path).privateKey;
    try {
      return await createKeyPairSignerFromPrivateKeyBytes(privateKey, false);
    } finally {
      privateKey.fill(0);
    }
  }
  return {
    /** Derives the escrow's signer. */
    signerFor(index: number): Promise<KeyPairSigner> {
      return signerAt(escrowDerivationPath(index));
    },
    /**
     * A 32-byte secret for something other than money (signing video links), derived one-way from
     * the seed: every instance sharing the seed shares it, and it reveals nothing of the seed.
     */
    secretFor(purpose: string): Uint8Array {
      return createHmac('sha256', masterSeed).update(`darepool:${purpose}`).digest();
    },
    /**
     * The platform fee payer: pays the network fee of every payout and refund, so an escrow sends
     * exactly its pool and can drain to 0. Its path ends in 1' where every escrow's ends in 0',
     * so no escrow index can ever derive it.
     */
    feePayer(): Promise<KeyPairSigner> {
      return signerAt(FEE_PAYER_DERIVATION_PATH);
    },
    /**
     * The escrow program's moderator: the only key that may settle (pay entrants) or cancel a
     * vault. Its own path, so the fee payer's key cannot settle and no escrow index reaches it.
     */
    moderator(): Promise<KeyPairSigner> {
      return signerAt(MODERATOR_DERIVATION_PATH);
    },
  };
}

/** Outside the escrow paths (`m/44'/501'/{index}'/0'`): the change level differs. */
export const FEE_PAYER_DERIVATION_PATH = "m/44'/501'/0'/1'";
/** Outside the escrow paths too (change level 2'), and apart from the fee payer's. */
export const MODERATOR_DERIVATION_PATH = "m/44'/501'/0'/2'";

export type EscrowKeys = ReturnType<typeof createEscrowKeys>;
