import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign } from 'node:crypto';
import {
  type Address,
  appendTransactionMessageInstruction,
  type Blockhash,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getAddressDecoder,
  getTransactionEncoder,
  pipe,
  type SignatureBytes,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';

// DER prefix of a PKCS#8 Ed25519 private key; the 32-byte seed follows it.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The embedded chain's faucet: a well-known key (like solana-test-validator's) that pays airdrops
 * with ordinary signed transfers, so an airdrop is a complete transaction in the history, with
 * accounts, balances and a signature, like one on devnet. Signing uses node:crypto because it is
 * synchronous, which keeps every state change of the chain in one uninterrupted step.
 */
export class Faucet {
  readonly address: Address;
  private readonly privateKey: KeyObject;

  constructor() {
    const seed = createHash('sha256').update('darepool embedded chain faucet').digest();
    this.privateKey = createPrivateKey({
      key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
      format: 'der',
      type: 'pkcs8',
    });
    const spki = createPublicKey(this.privateKey).export({ format: 'der', type: 'spki' });
    this.address = getAddressDecoder().decode(spki.subarray(spki.length - 32));
  }

  /** A signed legacy transfer from the faucet, as a wire transaction (real faucets send legacy ones). */
  airdropTransaction(to: Address, lamports: bigint, blockhash: string): Uint8Array {
    const message = pipe(
      createTransactionMessage({ version: 'legacy' }),
      (m) => setTransactionMessageFeePayer(this.address, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: blockhash as Blockhash, lastValidBlockHeight: 0n },
          m,
        ),
      (m) =>
        appendTransactionMessageInstruction(
          getTransferSolInstruction({
            source: createNoopSigner(this.address),
            destination: to,
            amount: lamports,
          }),
          m,
        ),
    );
    const unsigned = compileTransaction(message);
    const signature = sign(null, unsigned.messageBytes as unknown as Uint8Array, this.privateKey);
    return new Uint8Array(
      getTransactionEncoder().encode({
        ...unsigned,
        signatures: { [this.address]: new Uint8Array(signature) as SignatureBytes },
      }),
    );
  }
}
