import { createHmac } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import {
  type Address,
  createKeyPairSignerFromPrivateKeyBytes,
  getAddressDecoder,
  type KeyPairSigner,
} from '@solana/kit';
import { HDKey } from 'micro-key-producer/slip10.js';

/**
 * The only code that turns the master seed into keys. Nothing outside src/server/chain reads the
 * seed; callers get the platform's two signers and never see key bytes. No key exists for a
 * dare's money: each dare's SOL sits in its escrow program vault, a PDA no key can sign for
 * (docs/program.md). What these keys can do there: the moderator cancels (everyone is refunded;
 * v1's program would also let it settle, which the server never signs: decision 050); the fee
 * payer pays fees and rent and gets the rent back.
 */
export function createEscrowKeys(masterSeed: Uint8Array) {
  if (masterSeed.length < 16 || masterSeed.length > 64)
    throw new Error('The escrow master seed must be 16 to 64 bytes');
  const root = HDKey.fromMasterSeed(masterSeed);
  let heldAddresses: Map<Address, string> | undefined;
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
    /**
     * A 32-byte secret for something other than money (signing video links), derived one-way from
     * the seed: every instance sharing the seed shares it, and it reveals nothing of the seed.
     */
    secretFor(purpose: string): Uint8Array {
      return createHmac('sha256', masterSeed).update(`darepool:${purpose}`).digest();
    },
    /**
     * The platform fee payer: pays the network fee of the transactions the server sends (entries,
     * settles, cancels, refunds, closes) and the rent of every program account, which comes back
     * to it when the account closes. It can move no vault's SOL.
     */
    feePayer(): Promise<KeyPairSigner> {
      return signerAt(FEE_PAYER_DERIVATION_PATH);
    },
    /**
     * The escrow program's moderator: the only key that may cancel a vault (and, on v1, settle it:
     * retired, never signed by the server). Its own path, so the fee payer's key cannot.
     */
    moderator(): Promise<KeyPairSigner> {
      return signerAt(MODERATOR_DERIVATION_PATH);
    },
    /**
     * The addresses of keys anyone holding the seed has, each with what it is: the fee payer, the
     * moderator, and the keys a wallet tool derives from a seed (the Solana wallet tree's first
     * accounts and change levels, the first custodial escrows' old `m/44'/501'/{index}'/0'`, the seed's
     * first 32 bytes as solana-keygen takes them). No key the server has may hold a power meant
     * to check the server (a judge, the guardian, the program's upgrade authority): the start
     * refuses those by this list.
     */
    heldKeys(): ReadonlyMap<Address, string> {
      heldAddresses ??= deriveHeldKeys();
      return heldAddresses;
    },
  };

  function deriveHeldKeys(): Map<Address, string> {
    const held = new Map<Address, string>();
    // Each derived node already holds its public key; only the raw seed key needs computing.
    const add = (publicKey: Uint8Array, name: string) => {
      const address = addressDecoder.decode(publicKey) as Address;
      if (!held.has(address)) held.set(address, name);
    };
    add(root.derive(FEE_PAYER_DERIVATION_PATH).publicKeyRaw, 'the platform fee payer');
    add(root.derive(MODERATOR_DERIVATION_PATH).publicKeyRaw, 'the moderator (canceller) key');
    // Child by child from m/44'/501' (a path from the root would redo every level each time).
    const solana = root.derive("m/44'/501'");
    for (let account = 0; account < HELD_KEY_ACCOUNTS; account++) {
      const path = `m/44'/501'/${account}'`;
      const accountKey = solana.deriveChild(HARDENED + account);
      add(accountKey.publicKeyRaw, `the key at ${path}`);
      for (let change = 0; change < HELD_KEY_CHANGES; change++)
        add(accountKey.deriveChild(HARDENED + change).publicKeyRaw, `the key at ${path}/${change}'`);
    }
    add(ed25519.getPublicKey(masterSeed.slice(0, 32)), "the seed's first 32 bytes taken as a key");
    return held;
  }
}

const addressDecoder = getAddressDecoder();
/**
 * How far `heldKeys` looks in the wallet tree (the accounts a wallet tool offers first; custodial
 * escrows were numbered from 0): 60 keys, derived once per start (0.13–0.47 s measured on two
 * cores under a load average of 19).
 */
const HELD_KEY_ACCOUNTS = 12;
const HELD_KEY_CHANGES = 4;
const HARDENED = 0x8000_0000;

/**
 * Paths of the Solana wallet tree (`m/44'/501'/…`), change levels 1' and 2'. Before the escrow
 * program, custodial escrows used `m/44'/501'/{index}'/0'`; none is derived any more.
 */
export const FEE_PAYER_DERIVATION_PATH = "m/44'/501'/0'/1'";
export const MODERATOR_DERIVATION_PATH = "m/44'/501'/0'/2'";

export type EscrowKeys = ReturnType<typeof createEscrowKeys>;
