import {
  createHash,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  randomBytes,
  sign,
} from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
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

/** The faucet's key in the chain's folder, readable only by the owner, like the other keys. */
const KEY_FILE = 'faucet-key';

/** Whether the chain folder has a faucet key of its own (every folder made since decision 056 has). */
export function hasFaucetKey(dir: string): boolean {
  return existsSync(path.join(dir, KEY_FILE));
}

/**
 * The embedded chain's faucet: a random key per data folder (`faucet-key` beside the chain's
 * state; per process for a chain in memory) that pays airdrops with ordinary signed transfers, so an airdrop is a complete transaction in the history, with
 * accounts, balances and a signature, like one on devnet. Signing uses node:crypto because it is
 * synchronous, which keeps every state change of the chain in one uninterrupted step.
 */
export class Faucet {
  readonly address: Address;
  private readonly privateKey: KeyObject;

  /**
   * The key every data folder's faucet had before decision 056, derived from the source: anyone
   * could sign with it. Its balance moves to the folder's own faucet at the first start.
   */
  static legacy(): Faucet {
    return new Faucet(createHash('sha256').update('darepool embedded chain faucet').digest());
  }

  /** The chain folder's faucet, its key created on first use; null (a chain in memory): a fresh one. */
  static ofFolder(dir: string | null): Faucet {
    if (dir === null) return new Faucet(randomBytes(32));
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, KEY_FILE);
    if (existsSync(file)) {
      const hex = readFileSync(file, 'utf8').trim();
      if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`Corrupt faucet key file: ${file}`);
      return new Faucet(Buffer.from(hex, 'hex'));
    }
    const seed = randomBytes(32);
    writeFileSync(file, `${seed.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
    return new Faucet(seed);
  }

  private constructor(seed: Buffer) {
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
    return this.transferTransaction(to, lamports, blockhash);
  }

  /** A signed legacy transfer of `lamports` from this key to `to`. */
  transferTransaction(to: Address, lamports: bigint, blockhash: string): Uint8Array {
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
