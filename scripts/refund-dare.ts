/**
 * npm run refund-dare -- --rpc <url> --vault <address> [--keypair <file>] [--program <id>]
 *   Refunds every payer of a dare straight from its vault, with no DarePool server and no DarePool
 *   key: once the vault is refunding (cancelled) or open past its refund_after, the escrow program
 *   lets anyone send the refunds. --keypair (a solana-keygen file, default
 *   ~/.config/solana/id.json) only pays the network fees; --program defaults to the vault's owner.
 *   Prints each transaction's signature and what it returned to whom. A refund is due when the
 *   later of the chain's clock and this machine's passed the vault's refund_after (an idle chain's
 *   clock lags). An RPC it cannot reach is one line naming it, and exit code 1.
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Address, createSolanaRpc, fetchEncodedAccount, isAddress } from '@solana/kit';
import { lamportsToSol } from '#contract/money';
import { waitForConfirmation } from '#server/chain/confirmation';
import {
  buildCloseRecordsTransactions,
  type VaultTransaction,
} from '#server/chain/escrow-program/app-transactions';
import { fetchChainTime, laterOfClocks } from '#server/chain/escrow-program/chain-clock';
import { checkDeployedProgram } from '#server/chain/escrow-program/deploy';
import { readKeypairFile } from '#server/chain/escrow-program/keypair-file';
import { decodeVault } from '#server/chain/escrow-program/layout';
import { readEscrowProgram } from '#server/chain/escrow-program/program';

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

const account = await reach(fetchEncodedAccount(rpc, vaultAddress, { commitment: 'confirmed' }));
if (!account.exists)
  fail(`no account at ${vaultAddress}: the vault is closed (everyone was paid) or never existed`);
const programId = values.program ? addressArg(values.program, 'program') : account.programAddress;
if (account.programAddress !== programId)
  fail(`${vaultAddress} is owned by ${account.programAddress}, not ${programId}`);
const vault = decodeVault(new Uint8Array(account.data));
if (!vault) fail(`${vaultAddress} is not a DarePool vault`);

// Only informative: the keypair pays fees and signs nothing else, whatever the program is.
const check = await reach(checkDeployedProgram(rpc, programId, readEscrowProgram()));
console.log(
  check.same
    ? `Program ${programId} runs this repository's build (sha256 ${check.expectedSha256}).`
    : `Note: program ${programId} is not this repository's build of the escrow program.`,
);

if (vault.status === 'settled') fail('this dare was paid out to its winner: there is nothing to refund');
if (vault.status === 'open') {
  const chainTime = await reach(fetchChainTime(rpc));
  const now = laterOfClocks(chainTime, new Date());
  if (now < vault.refundAfter) {
    fail(
      `refunds are not due until ${isoTime(vault.refundAfter)} (it is ${isoTime(now)}); until then only DarePool's moderator can cancel the dare`,
    );
  }
}
console.log(
  `Vault ${vaultAddress}: ${vault.status === 'refunding' ? 'cancelled' : `refunds due since ${isoTime(vault.refundAfter)}`}; ${lamportsToSol(vault.total)} SOL to return.`,
);

const feePayer = await readKeypairFile(values.keypair).catch((error: Error) => fail(error.message));
const transactions = await reach(
  buildCloseRecordsTransactions(rpc, { programId, vault: vaultAddress, feePayer }),
);
let returned = 0n;
/** Closes that could not land even alone (their entrant's account refuses its rent). */
const refused: string[] = [];
async function send(transaction: VaultTransaction): Promise<string> {
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
console.log(
  `Done: ${lamportsToSol(returned)} SOL refunded in ${transactions.length} transaction(s); ${closed ? 'the vault is closed' : 'the vault is still open (records were added meanwhile: run again)'}.`,
);
