/**
 * The guardian's tool: works against any RPC node, with no DarePool server and no database
 * (it imports only the chain client; `npm run check` holds it to that).
 *
 * npm run guardian -- list [--rpc <url>] [--program <v2 id>] [--guardian <address> | --all]
 *                          [--canceller <address>] [--app <DarePool site URL>] [--json]
 *   Every escrow v2 proposal still in its window: the vault, which dare (the memo of the vault's
 *   creating transaction, else the vault's seed), the winners, what each would be paid, each
 *   winner's proof hash, and when it pays. With --app (default DAREPOOL_URL), also the dare's id
 *   and title, each winner's username, and whether the proof video the site serves still hashes
 *   to the entry's fingerprint (read over the site's public API, checked against the chain:
 *   docs/decisions/055). --guardian (default GUARDIAN_WALLET) keeps the vaults
 *   that name that guardian, --all shows every vault's; --canceller keeps the vaults that key may
 *   cancel (DarePool's vaults: its moderator key, printed by the server at start).
 * npm run guardian -- veto --vault <address> --keypair <file> [--rpc <url>] [--program <v2 id>]
 *   Vetoes the vault's proposal, signed and paid (5,000 lamports) by the guardian's keypair (a
 *   solana-keygen JSON file). Prints one line with the signature.
 *
 * --rpc defaults to SOLANA_RPC_URL, else http://127.0.0.1:8899 (the embedded chain of `npm start`
 * and `npm run localnet`). --program defaults to ESCROW_PROGRAM_V2_ID, else the v2 program a local
 * chain's folder records (DATA_DIR/localnet or DATA_DIR/chain, escrow-program-v2-keypair.json) when
 * it runs on that RPC. Every failure is one line on stderr and exit code 1.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  type Address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  fetchEncodedAccount,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  isAddress,
  isSolanaError,
  pipe,
  type Rpc,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  type SolanaRpcApi,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { lamportsToSol } from '#contract/money';
import {
  computeBudgetInstructions,
  computeUnitLimit,
  priorityFeeLamports,
  priorityFeesOf,
} from '#server/chain/compute-budget';
import { ConfirmationError, waitForConfirmation } from '#server/chain/confirmation';
import { fetchChainTime } from '#server/chain/escrow-program/chain-clock';
import { readKeypairFile } from '#server/chain/escrow-program/keypair-file';
import { customErrorCode, escrowV2ErrorMessage } from '#server/chain/escrow-program/v2/errors';
import { getVetoInstruction } from '#server/chain/escrow-program/v2/instructions';
import { decodeVaultV2 } from '#server/chain/escrow-program/v2/layout';
import {
  createProposalLabeller,
  type ProposalLabel,
  type VideoCheck,
} from '#server/chain/escrow-program/v2/proposal-labels';
import { printableMemo, timeUntil, utcMinute } from '#server/chain/escrow-program/v2/proposal-text';
import {
  dareIdOfMemo,
  findVaultCreation,
  listStandingProposals,
  type StandingProposal,
} from '#server/chain/escrow-program/v2/standing-proposals';

const DEFAULT_RPC = 'http://127.0.0.1:8899';
/** The file a local chain's folder keeps v2's program keypair in (its address is the program id). */
const LOCAL_V2_PROGRAM_KEYPAIR = 'escrow-program-v2-keypair.json';
const SIGNATURE_FEE = 5000n;

class Refusal extends Error {}

function fail(message: string): never {
  throw new Refusal(message);
}

function addressArg(value: string | undefined, name: string): Address {
  if (!value) fail(`--${name} <address> is required`);
  if (!isAddress(value)) fail(`--${name} ${value} is not a Solana address`);
  return value;
}

/** Before the commands run (reading .env and the options), a failure is one line too. */
function refuseNow(message: string): never {
  console.error(`guardian: ${message.split('\n')[0]}`);
  process.exit(1);
}

// The operator's .env (as the server reads it); variables already set win, even when empty.
try {
  process.loadEnvFile('.env');
} catch (error) {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
    refuseNow(`cannot read .env: ${(error as Error).message}`);
}

const [command, ...rest] = process.argv.slice(2);
const parsed = (() => {
  try {
    return parseArgs({
      args: rest,
      options: {
        rpc: { type: 'string' },
        program: { type: 'string' },
        json: { type: 'boolean', default: false },
        guardian: { type: 'string' },
        all: { type: 'boolean', default: false },
        canceller: { type: 'string' },
        vault: { type: 'string' },
        keypair: { type: 'string' },
        app: { type: 'string' },
      },
    });
  } catch (error) {
    refuseNow(`${(error as Error).message} (see scripts/guardian.ts)`);
  }
})();
const { values } = parsed;
const str = (value: string | undefined) => value || undefined;
const rpcUrl = str(values.rpc) ?? process.env.SOLANA_RPC_URL ?? DEFAULT_RPC;
if (!URL.canParse(rpcUrl) || !/^https?:$/.test(new URL(rpcUrl).protocol))
  refuseNow(`the RPC URL ${rpcUrl} is not an http(s) URL`);
const rpc = createSolanaRpc(rpcUrl);

/** A network failure reaching the node, as opposed to the node's answer. */
function unreachable(error: unknown): string | null {
  if (isSolanaError(error, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR))
    return `the RPC at ${rpcUrl} answered HTTP ${error.context.statusCode}`;
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return `cannot reach the RPC at ${rpcUrl}: ${cause?.code ?? cause?.message ?? error.message}`;
  }
  return null;
}

async function isProgramOn(rpc: Rpc<SolanaRpcApi>, programId: Address): Promise<boolean> {
  const account = await fetchEncodedAccount(rpc, programId, { commitment: 'confirmed' });
  return account.exists && account.executable;
}

async function programId(): Promise<Address> {
  const given = str(values.program) ?? process.env.ESCROW_PROGRAM_V2_ID;
  if (given) {
    const id = addressArg(given, 'program');
    if (!(await isProgramOn(rpc, id))) fail(`no program ${id} on ${rpcUrl}`);
    return id;
  }
  const dataDir = process.env.DATA_DIR || './data';
  for (const folder of ['localnet', 'chain']) {
    const file = path.join(dataDir, folder, LOCAL_V2_PROGRAM_KEYPAIR);
    if (!existsSync(file)) continue;
    const id = (await readKeypairFile(file).catch((error: Error) => fail(error.message))).address;
    if (await isProgramOn(rpc, id)) return id;
  }
  fail(
    `which escrow v2 program? Pass --program <v2 program id> or set ESCROW_PROGRAM_V2_ID (no local chain folder under ${dataDir} names one running on ${rpcUrl})`,
  );
}

async function now(): Promise<{ chain: bigint; later: bigint }> {
  const chain = await fetchChainTime(rpc);
  const wall = BigInt(Math.floor(Date.now() / 1000));
  // An idle local chain's clock can lag the wall clock: the countdown uses the later of the two.
  return { chain, later: chain > wall ? chain : wall };
}

function described(
  proposal: StandingProposal,
  dare: { id: string | null; memo: string | null },
  label: ProposalLabel | null,
  at: bigint,
) {
  const { terms } = proposal;
  return {
    vault: proposal.vault,
    dare: {
      // The site's dare (its own escrowWallet is this vault) when it names one, else the memo's.
      id: label?.dare ? String(label.dare.id) : dare.id,
      title: label?.dare?.title ?? null,
      memo: dare.memo,
      seed: Buffer.from(terms.dareId).toString('hex'),
    },
    kind: terms.kind,
    executesAt: new Date(Number(proposal.executesAt) * 1000).toISOString(),
    secondsLeft: Number(proposal.executesAt - at),
    pot: lamportsToSol(proposal.pot),
    winners: proposal.winners.map((w, index) => ({
      wallet: w.wallet,
      amount: lamportsToSol(w.lamports),
      lamports: w.lamports.toString(),
      proofHashes: w.entries.map((e) => e.proofHash),
      entries: w.entries,
      username: label?.winners[index]?.username ?? null,
      proofHash: label?.winners[index]?.proofHash ?? null,
      video: label?.winners[index]?.video ?? ('unknown' as VideoCheck),
      servedHash: label?.winners[index]?.servedHash ?? null,
    })),
    judges: terms.judges,
    threshold: terms.threshold,
    guardian: terms.guardian,
    canceller: terms.canceller,
    rentPayer: terms.rentPayer,
    vetoCount: terms.vetoCount,
  };
}

async function list(): Promise<void> {
  const clock = await now();
  const program = await programId();
  const guardian = values.all
    ? undefined
    : str(values.guardian) || process.env.GUARDIAN_WALLET
      ? addressArg(str(values.guardian) ?? process.env.GUARDIAN_WALLET, 'guardian')
      : undefined;
  const canceller = str(values.canceller) ? addressArg(str(values.canceller), 'canceller') : undefined;
  const standing = await listStandingProposals(rpc, program, { guardian, canceller });
  // The program refuses a veto from executes_at on, by the chain's clock.
  const open = standing.filter((p) => p.executesAt > clock.chain);
  const waiting = standing.length - open.length;
  const siteUrl = str(values.app) ?? str(process.env.DAREPOOL_URL);
  if (siteUrl && (!URL.canParse(siteUrl) || !/^https?:$/.test(new URL(siteUrl).protocol)))
    fail(`the DarePool site URL ${siteUrl} is not an http(s) URL`);
  const labeller = siteUrl ? createProposalLabeller(siteUrl) : null;
  const memos = await Promise.all(open.map((p) => findVaultCreation(rpc, program, p.vault)));
  const rows = [];
  // One after another: the site's dares are read once, page by page, for every vault.
  for (const [index, proposal] of open.entries()) {
    const memo = memos[index]?.memo ?? null;
    const label = labeller
      ? await labeller.label(
          proposal.vault,
          proposal.winners.map((w) => ({ proofHashes: w.entries.map((e) => e.proofHash) })),
        )
      : null;
    rows.push(described(proposal, { id: dareIdOfMemo(memo), memo }, label, clock.later));
  }
  const siteNote = !labeller
    ? 'Dare titles, usernames and videos: pass --app <DarePool site URL> (or set DAREPOOL_URL) to check them.'
    : labeller.problem();
  if (values.json) {
    console.log(
      JSON.stringify(
        {
          rpc: rpcUrl,
          programId: program,
          guardian: guardian ?? null,
          now: new Date(Number(clock.later) * 1000).toISOString(),
          site: siteUrl ?? null,
          siteProblem: labeller?.problem() ?? null,
          proposals: rows,
          pastWindow: waiting,
        },
        null,
        2,
      ),
    );
    return;
  }
  console.log(
    `Escrow v2 program ${program} on ${rpcUrl}; ${guardian ? `vaults guarded by ${guardian}` : 'every guardian'}${canceller ? `, cancellable by ${canceller}` : ''}. Now ${utcMinute(clock.later)}.`,
  );
  if (siteNote) console.log(siteNote);
  for (const row of rows) {
    const which = row.dare.id
      ? `dare ${row.dare.id}${row.dare.title ? ` "${printableMemo(row.dare.title)}"` : ''}`
      : row.dare.memo
        ? `memo "${printableMemo(row.dare.memo)}"`
        : `dare seed ${row.dare.seed} (no creation memo found)`;
    console.log('');
    console.log(`Vault ${row.vault}: ${which}`);
    if (row.dare.id && row.dare.memo) console.log(`  memo "${printableMemo(row.dare.memo)}"`);
    const executesAt = BigInt(Math.floor(Date.parse(row.executesAt) / 1000));
    console.log(
      `  ${row.kind} dare, pays ${utcMinute(executesAt)} (${timeUntil(executesAt - clock.later)}); pot ${row.pot} SOL; judges ${row.threshold} of ${row.judges.length}: ${row.judges.join(', ')}`,
    );
    for (const [index, winner] of row.winners.entries()) {
      const share = row.kind === 'major' ? (index === 0 ? ' (70%)' : ' (30%)') : '';
      const hashes =
        winner.proofHashes.length === 0
          ? 'no entry found'
          : winner.proofHashes.length === 1
            ? `proof hash ${winner.proofHashes[0]}`
            : `${winner.proofHashes.length} entries, proof hashes ${winner.proofHashes.join(', ')} (check which one was judged)`;
      const who = winner.username ? ` (${printableMemo(winner.username)})` : '';
      console.log(`  winner ${winner.wallet}${who} gets ${winner.amount} SOL${share}; ${hashes}`);
      if (labeller) console.log(`    ${videoLine(winner)}`);
    }
    console.log(`  veto: npm run guardian -- veto --vault ${row.vault} --keypair <guardian keypair file>`);
  }
  console.log('');
  console.log(
    rows.length === 0
      ? 'No proposal in its window.'
      : `${rows.length} proposal${rows.length === 1 ? '' : 's'} in ${rows.length === 1 ? 'its' : 'their'} window.`,
  );
  if (waiting > 0)
    console.log(
      `${waiting} more past ${waiting === 1 ? 'its' : 'their'} window, waiting to be executed (too late to veto).`,
    );
}

const VIDEO_WORDS: Record<VideoCheck, string> = {
  matches: 'the stored video still has this fingerprint',
  changed: 'THE STORED VIDEO NO LONGER HAS THIS FINGERPRINT',
  missing: 'THE STORED VIDEO IS GONE',
  link: 'a link proof: its fingerprint is the URL, which matches (what it points to is not fixed)',
  unknown: 'the site lists no proof with this fingerprint',
};

function videoLine(winner: { proofHash: string | null; video: VideoCheck; servedHash: string | null }) {
  const which = winner.proofHash ? `proof ${winner.proofHash}: ` : '';
  const served = winner.servedHash ? ` (it hashes to ${winner.servedHash})` : '';
  return `${which}${VIDEO_WORDS[winner.video]}${served}`;
}

/** The program's or the node's reason a send was refused, in one line. */
function refusal(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  if (isSolanaError(cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM))
    return escrowV2ErrorMessage(cause.context.code);
  return cause instanceof Error ? cause.message : (error as Error).message;
}

function onChainReason(err: unknown): string {
  const code = customErrorCode(err);
  return code === null
    ? JSON.stringify(err, (_key, value) => (typeof value === 'bigint' ? value.toString() : value))
    : escrowV2ErrorMessage(code);
}

async function veto(): Promise<void> {
  const vault = addressArg(str(values.vault), 'vault');
  const keypairFile = str(values.keypair);
  if (!keypairFile) fail('--keypair <file> is required (the guardian keypair, a solana-keygen JSON file)');
  const guardian = await readKeypairFile(keypairFile).catch((error: Error) => fail(error.message));
  const chainNow = await fetchChainTime(rpc);
  const program = await programId();
  const account = await fetchEncodedAccount(rpc, vault, { commitment: 'confirmed' });
  if (!account.exists) fail(`no account at ${vault} on ${rpcUrl}: no proposal to veto`);
  if (account.programAddress !== program)
    fail(`${vault} is not a vault of escrow v2 program ${program} (its owner is ${account.programAddress})`);
  const terms = decodeVaultV2(new Uint8Array(account.data));
  if (!terms) fail(`${vault} is not an escrow v2 vault`);
  if (terms.guardian !== guardian.address)
    fail(`${guardian.address} is not the guardian of vault ${vault} (its guardian is ${terms.guardian})`);
  if (terms.status !== 'proposed' || !terms.proposal)
    fail(`no proposal stands on vault ${vault} (it is ${terms.status}): nothing to veto`);
  if (chainNow >= terms.proposal.executesAt)
    fail(
      `the window of vault ${vault} closed ${utcMinute(terms.proposal.executesAt)} (the chain's clock reads ${utcMinute(chainNow)}): too late to veto`,
    );
  // The veto carries a compute-unit limit and price (compute-budget.ts): a busy cluster lands it in time.
  const veto = getVetoInstruction({ programId: program, vault, guardian });
  const microLamports = await priorityFeesOf(rpc).microLamportsFor([guardian.address, vault]);
  const budget = computeBudgetInstructions([veto], microLamports);
  const fee = SIGNATURE_FEE + priorityFeeLamports(microLamports, computeUnitLimit([veto]));
  const { value: balance } = await rpc.getBalance(guardian.address, { commitment: 'confirmed' }).send();
  if (balance < fee)
    fail(
      `the guardian ${guardian.address} holds ${lamportsToSol(balance)} SOL: it pays the veto's fee, ${lamportsToSol(fee)} SOL`,
    );

  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const transaction = await signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(guardian, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions([...budget, veto], m),
    ),
  );
  const signature = getSignatureFromTransaction(transaction);
  try {
    await rpc
      .sendTransaction(getBase64EncodedWireTransaction(transaction), {
        encoding: 'base64',
        preflightCommitment: 'confirmed',
      })
      .send();
  } catch (error) {
    if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE))
      fail(`the veto of vault ${vault} was refused: ${refusal(error)}`);
    throw error;
  }
  try {
    await waitForConfirmation(rpc, signature, { lastValidBlockHeight: lifetime.lastValidBlockHeight });
  } catch (error) {
    if (error instanceof ConfirmationError)
      fail(
        error.reason === 'failed'
          ? `the veto of vault ${vault} failed on chain (${signature}): ${onChainReason(error.transactionError)}`
          : error.message,
      );
    throw error;
  }
  console.log(`Vetoed the proposal on vault ${vault}: ${signature}`);
}

try {
  if (command === 'list') await list();
  else if (command === 'veto') await veto();
  else
    fail(
      'usage: npm run guardian -- list [--json] | veto --vault <address> --keypair <file> (see scripts/guardian.ts)',
    );
} catch (error) {
  const message =
    error instanceof Refusal ? error.message : (unreachable(error) ?? `${(error as Error).message ?? error}`);
  console.error(`guardian: ${message.split('\n')[0]}`);
  process.exitCode = 1;
}
