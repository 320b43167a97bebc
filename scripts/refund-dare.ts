/**
 * npm run refund-dare -- --rpc <url> --vault <address> [--keypair <file>] [--program <id>] [--master-seed <file>]
 *   Refunds every payer of a dare straight from its vault, with no DarePool server and no DarePool
 *   key, for a vault of either escrow program (v1 or v2: the vault's layout says which, the
 *   version table in versions.ts says what differs): once the vault is refunding (cancelled) or
 *   open past its refund_after (a vetoed proposal leaves it open), the program lets anyone send the
 *   refunds; each receipt's and entry's rent goes back to whoever paid it. --keypair (a
 *   solana-keygen file, default ~/.config/solana/id.json) only pays the network fees; --program
 *   defaults to the vault's owner. --master-seed (DarePool's operator only: the data folder's
 *   escrow-master-seed, or a file holding ESCROW_MASTER_SEED) also gives back the propose nonce a
 *   v2 vault judged by several judges holds (decision 042): withdrawn to the platform fee payer,
 *   whose rent it is, the fee paid by --keypair. Prints each transaction's signature and what it
 *   returned to whom. A refund is due when the later of the chain's clock and this machine's passed
 *   the vault's refund_after (an idle chain's clock lags). An RPC it cannot reach is one line
 *   naming it, and exit code 1.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  type Address,
  createSolanaRpc,
  fetchEncodedAccount,
  isAddress,
  type KeyPairSigner,
  type TransactionSigner,
} from '@solana/kit';
import { getWithdrawNonceAccountInstruction } from '@solana-program/system';
import { lamportsToSol } from '#contract/money';
import { priorityFeesOf } from '#server/chain/compute-budget';
import { waitForConfirmation } from '#server/chain/confirmation';
import { createEscrowKeys } from '#server/chain/escrow-keys';
import { decodeAnyVault } from '#server/chain/escrow-program/any-program';
import {
  buildCloseRecordsTransactions,
  type VaultTransaction,
} from '#server/chain/escrow-program/app-transactions';
import { fetchChainTime, laterOfClocks } from '#server/chain/escrow-program/chain-clock';
import { checkDeployedProgram } from '#server/chain/escrow-program/deploy';
import { readKeypairFile } from '#server/chain/escrow-program/keypair-file';
import { proposeNonceAddress } from '#server/chain/escrow-program/v2/propose-nonce-account';
import { ESCROW_PROGRAM_VERSIONS } from '#server/chain/escrow-program/versions';
import { packSignedTransactions } from '#server/chain/escrow-program/wire-transactions';

function fail(message: string): never {
  console.error(`refund-dare: ${message}`);
  process.exit(1);
}

function addressArg(value: string | undefined, name: string): Address {
  if (!value) fail(`--${name} <address> is required`);
  if (!isAddress(value)) fail(`--${name} ${value} is not a Solana address`);
  return value;
}

const isoTime = (unixSeconds: bigint) => new Date(Number(unixSeconds) * 1000).toISOString();

const { values } = parseArgs({
  options: {
    rpc: { type: 'string' },
    vault: { type: 'string' },
    keypair: { type: 'string', default: path.join(os.homedir(), '.config/solana/id.json') },
    program: { type: 'string' },
    'master-seed': { type: 'string' },
  },
});
if (!values.rpc) fail('--rpc <url> is required (the cluster the dare lives on)');
const rpcUrl = values.rpc;
const vaultAddress = addressArg(values.vault, 'vault');
const rpc = createSolanaRpc(rpcUrl);

/** An RPC call: a node that cannot be reached is one line naming it, never a stack trace. */
function reach<T>(call: Promise<T>): Promise<T> {
  return call.catch((error: unknown) => fail(`cannot reach the RPC at ${rpcUrl}: ${reasonOf(error)}`));
}

/** The innermost message of an error (fetch wraps the socket's reason in `cause`). */
function reasonOf(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}

// Read before anything is sent: a seed that cannot be read stops the script with nothing moved.
const nonceAuthority = values['master-seed'] ? await feePayerOf(values['master-seed']) : null;

/** The platform fee payer, derived from DarePool's master seed (hex, as the data folder keeps it). */
async function feePayerOf(file: string): Promise<KeyPairSigner> {
  let hex: string;
  try {
    hex = readFileSync(file, 'utf8').trim();
  } catch (error) {
    fail(`cannot read the master seed ${file}: ${(error as Error).message}`);
  }
  if (!/^([0-9a-f]{2}){16,64}$/i.test(hex))
    fail(`${file} is not a master seed (16 to 64 bytes in hex, as ESCROW_MASTER_SEED)`);
  return createEscrowKeys(Uint8Array.from(Buffer.from(hex, 'hex'))).feePayer();
}

const account = await reach(fetchEncodedAccount(rpc, vaultAddress, { commitment: 'confirmed' }));
if (!account.exists) {
  // A vault refunded earlier without --master-seed may have left the fee payer's nonce behind.
  if (nonceAuthority) {
    console.log(`No account at ${vaultAddress}: the vault is closed (everyone was paid) or never existed.`);
    await giveBackProposeNonce(await readFeePaying(), false);
    process.exit(0);
  }
  fail(`no account at ${vaultAddress}: the vault is closed (everyone was paid) or never existed`);
}
const programId = values.program ? addressArg(values.program, 'program') : account.programAddress;
if (account.programAddress !== programId)
  fail(`${vaultAddress} is owned by ${account.programAddress}, not ${programId}`);
const vault = decodeAnyVault(new Uint8Array(account.data));
if (!vault) fail(`${vaultAddress} is not a DarePool vault (neither escrow program v1's layout nor v2's)`);
const version = ESCROW_PROGRAM_VERSIONS[vault.version];

// Only informative: the keypair pays fees and signs nothing else, whatever the program is.
const check = await reach(checkDeployedProgram(rpc, programId, version.build()));
console.log(
  check.same
    ? `Program ${programId} runs this repository's build of escrow program v${version.version} (sha256 ${check.expectedSha256}).`
    : `Note: program ${programId} is not this repository's build of escrow program v${version.version}.`,
);

if (vault.status === 'settled') fail('this dare was paid out to its winner: there is nothing to refund');
const blocked = version.refundBlockedBy(vault);
if (blocked) fail(blocked);
if (vault.status === 'open') {
  const chainTime = await reach(fetchChainTime(rpc));
  const now = laterOfClocks(chainTime, new Date());
  if (now < vault.refundAfter) {
    fail(
      `refunds are not due until ${isoTime(vault.refundAfter)} (it is ${isoTime(now)}); until then only DarePool's moderator (canceller) can cancel the dare`,
    );
  }
}
const vetoes = vault.judging?.vetoCount ?? 0;
console.log(
  `Vault ${vaultAddress} (escrow program v${vault.version}): ${vault.status === 'refunding' ? 'cancelled' : `refunds due since ${isoTime(vault.refundAfter)}`}${vetoes > 0 ? ` (${vetoes} proposal(s) vetoed)` : ''}; ${lamportsToSol(vault.total)} SOL to return.`,
);

const feePayer = await readFeePaying();
const transactions = await reach(
  buildCloseRecordsTransactions(rpc, { programId, vault: vaultAddress, feePayer }),
);
let returned = 0n;
/** Closes that could not land even alone (their entrant's account refuses its rent). */
const refused: string[] = [];
async function send(
  transaction: Pick<VaultTransaction, 'base64' | 'signature' | 'lastValidBlockHeight'>,
): Promise<string> {
  const signature = await rpc.sendTransaction(transaction.base64, { encoding: 'base64' }).send();
  await waitForConfirmation(rpc, transaction.signature, {
    lastValidBlockHeight: transaction.lastValidBlockHeight,
  });
  return signature;
}
/** Packed entry closes that cannot land (one entrant's account refusing its rent) go one by one. */
async function sendOrSeparately(transaction: VaultTransaction): Promise<VaultTransaction[]> {
  try {
    console.log(`Sent ${await send(transaction)}`);
    return [transaction];
  } catch (error) {
    if (!transaction.separately)
      fail(`transaction ${transaction.signature} failed: ${(error as Error).message}`);
    console.log(`Transaction ${transaction.signature} failed; sending its closes one by one`);
    const sent: VaultTransaction[] = [];
    for (const single of await transaction.separately()) {
      try {
        console.log(`Sent ${await send(single)}`);
        sent.push(single);
      } catch (singleError) {
        refused.push(`transaction ${single.signature} failed: ${(singleError as Error).message}`);
      }
    }
    return sent;
  }
}
for (const transaction of transactions) {
  for (const landed of await sendOrSeparately(transaction)) {
    for (const close of landed.closes) {
      if (close.kind === 'refund') {
        returned += close.amount;
        console.log(`  refunded ${lamportsToSol(close.amount)} SOL to ${close.payer}`);
      } else if (close.kind === 'closeEntry') console.log(`  closed the entry of ${close.entrant}`);
    }
  }
}
if (refused.length > 0) fail(`${refused.length} close(s) could not land: ${refused.join('; ')}`);
const closed = !(await reach(fetchEncodedAccount(rpc, vaultAddress, { commitment: 'confirmed' }))).exists;
if (vault.version === 2) await giveBackProposeNonce(feePayer, (vault.judging?.threshold ?? 1) > 1);
console.log(
  `Done: ${lamportsToSol(returned)} SOL refunded in ${transactions.length} transaction(s); ${closed ? 'the vault is closed' : 'the vault is still open (records were added meanwhile: run again)'}.`,
);

/** The --keypair that pays the fees. */
function readFeePaying(): Promise<KeyPairSigner> {
  return readKeypairFile(values.keypair).catch((error: Error) => fail(error.message));
}

/**
 * A v2 vault judged by several judges has a durable nonce account of the fee payer's (its rent
 * lent by the fee payer). Once the vault is refunding or closed no proposal can land any more, so
 * with --master-seed it is withdrawn whole to the fee payer (the fee paid by --keypair); without
 * it, the account is named so DarePool's operator knows it is theirs (the server also withdraws
 * it when it next runs: decision 042).
 */
async function giveBackProposeNonce(payer: TransactionSigner, severalJudges: boolean): Promise<void> {
  if (!nonceAuthority) {
    if (severalJudges)
      console.log(
        "Judges sign this vault's proposals in turn: DarePool's fee payer may hold a propose nonce for it (its own rent); DarePool's operator gives it back with --master-seed.",
      );
    return;
  }
  const nonceAccount = await proposeNonceAddress(nonceAuthority.address, vaultAddress);
  const { value: nonce } = await reach(
    rpc.getAccountInfo(nonceAccount, { commitment: 'confirmed', encoding: 'base64' }).send(),
  );
  if (!nonce) {
    console.log(`No propose nonce of the fee payer ${nonceAuthority.address} for this vault.`);
    return;
  }
  const { value: lifetime } = await reach(rpc.getLatestBlockhash({ commitment: 'confirmed' }).send());
  const [withdraw] = await packSignedTransactions({
    feePayer: payer,
    lifetime,
    fees: priorityFeesOf(rpc),
    steps: [
      {
        instruction: getWithdrawNonceAccountInstruction({
          nonceAccount,
          recipientAccount: nonceAuthority.address,
          nonceAuthority,
          withdrawAmount: nonce.lamports,
        }),
      },
    ],
  });
  try {
    console.log(`Sent ${await send(withdraw!)}`);
  } catch (error) {
    fail(`the propose nonce ${nonceAccount} could not be withdrawn: ${(error as Error).message}`);
  }
  console.log(
    `  gave the propose nonce ${nonceAccount} back: ${lamportsToSol(nonce.lamports)} SOL to the fee payer ${nonceAuthority.address}`,
  );
}
