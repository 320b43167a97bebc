import { randomBytes } from 'node:crypto';
import {
  type Address,
  generateKeyPair,
  getAddressFromPublicKey,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  type KeyPairSigner,
  signTransaction,
} from '@solana/kit';
import type { Category, Difficulty } from '#contract/limits';
import { solToLamports } from '#contract/money';
import { DAY_MS } from '#contract/time';
import { createUser } from '#server/db/factories';
import type { AppDeps } from '#server/deps';
import type { UserRow } from '#server/features/auth/user';
import { type DemoServices, demoServices } from './demo-services';
import { countUsers, setDemoDareColumns } from './repo';
import { seedActivity } from './seed-activity';

export const DEMO_ADMIN_USERNAME = 'admin';
/** The demo users' shared, documented password: they hold no rights beyond any sign-up's. */
export const DEMO_USER_PASSWORD = 'darepool-demo';
const MAJOR_TITLE = 'Major Dare of the Week: 100 push-ups in public';
/** Test SOL each demo wallet starts with, before its stakes and contributions. */
const DEMO_WALLET_SOL = '10';

export interface SeedDeps extends AppDeps {
  /** DEMO_ADMIN_PASSWORD; unset, a random one is generated. */
  adminPassword?: string;
  /**
   * The demo admin's wallet: the key the embedded chain's first start writes into DATA_DIR
   * (src/server/judging-keys.ts), so the operator can load it into the browser and judge. Unset: a key
   * that lives only in this process.
   */
  adminWallet?: KeyPairSigner;
  /**
   * Moves the chain's clock past the payout window of the winner the demo names, so the demo holds
   * a paid prize (start.ts: a new chain that began a window ago catches up; tests warp). Unset:
   * the winner stays named, and the payout job pays it when the window ends.
   */
  payoutWindowPassed?: () => Promise<void>;
}

export type SeedResult =
  | { seeded: false }
  | { seeded: true; admin: { username: string; password: string; generated: boolean } };

interface DemoUser {
  row: UserRow;
  keys: CryptoKeyPair;
}

interface DemoDare {
  creator: DemoUser;
  title: string;
  description: string;
  category: Category;
  difficulty: Difficulty;
  stake: string;
  days: number;
  contributions?: [DemoUser, string][];
  /**
   * Deactivated by the admin once funded, through the admin's own Deactivate: cancelled on chain
   * and its payers refunded, so the demo shows a refunded dare as users would see one.
   */
  deactivated?: true;
  /** Written after the dare is funded: what makes the Major Dare one. */
  afterwards?: {
    isMajor?: boolean;
    maxParticipants?: number;
    category?: string;
  };
}

/**
 * Demo data for the embedded chain: a few users (one admin), dares in every status and category,
 * an active Major Dare, and activity on them (approved and featured video proofs, votes, a winner
 * paid on chain, chat; see seed-activity.ts). Every dare is funded the way a user funds one (escrow, transfer signed
 * by the demo wallet, relay, verification, credit), so the ledger reconciles on a fresh start.
 * Runs only on an empty database, so later starts keep what users did.
 */
export async function seedDemoData(deps: SeedDeps): Promise<SeedResult> {
  const { chain } = deps;
  const db = deps.database.db;
  if ((await countUsers(db)) > 0) return { seeded: false };

  // The demo wallets' keys live only in this process: demo accounts sign in with a password, and
  // nobody can ever spend what remains in their wallets.
  const demoUser = async (
    values: Parameters<typeof createUser>[1],
    wallet?: KeyPairSigner,
  ): Promise<DemoUser> => {
    const keys = wallet?.keyPair ?? (await generateKeyPair());
    const walletAddress = await getAddressFromPublicKey(keys.publicKey);
    const row = await createUser(db, { ...values, walletAddress });
    await chain.airdrop(walletAddress, solToLamports(DEMO_WALLET_SOL));
    return { row, keys };
  };
  // A constant admin password would be known to anyone who read the README of a reachable demo.
  const adminPassword = deps.adminPassword ?? randomBytes(12).toString('base64url');
  const admin = await demoUser(
    { username: DEMO_ADMIN_USERNAME, password: adminPassword, isAdmin: true, reputation: 50 },
    deps.adminWallet,
  );
  const alice = await demoUser({ username: 'alice', password: DEMO_USER_PASSWORD, reputation: 12 });
  const bob = await demoUser({ username: 'bob', password: DEMO_USER_PASSWORD, reputation: 4 });
  const carol = await demoUser({ username: 'carol', password: DEMO_USER_PASSWORD });

  const demoDares: DemoDare[] = [
    {
      creator: alice,
      title: 'Cold shower for 7 days',
      description: 'Take a fully cold shower every morning for a week. Film day 1 and day 7.',
      category: 'physical',
      difficulty: 'hard',
      stake: '0.5',
      days: 10,
      contributions: [
        [bob, '0.25'],
        [carol, '0.1'],
      ],
    },
    {
      creator: bob,
      title: 'Paint a mural in one afternoon',
      description: 'Paint a mural at least 2 metres wide in a single afternoon, time-lapse it.',
      category: 'creative',
      difficulty: 'medium',
      stake: '0.25',
      days: 5,
    },
    {
      creator: carol,
      title: 'Compliment 20 strangers',
      description: 'Give a sincere compliment to 20 strangers in one day, with their consent to film.',
      category: 'social',
      difficulty: 'easy',
      stake: '0.1',
      days: 3,
      contributions: [[alice, '0.05']],
    },
    {
      creator: alice,
      title: 'Solve a Rubik’s cube blindfolded',
      description: 'Inspect, put on the blindfold and solve. One continuous take.',
      category: 'skill',
      difficulty: 'extreme',
      stake: '1',
      days: 14,
    },
    {
      creator: bob,
      title: 'Sunrise summit hike',
      description: 'Reach a summit before sunrise and film the first light from the top.',
      category: 'adventure',
      difficulty: 'hard',
      stake: '0.3',
      days: 2,
    },
    {
      creator: carol,
      title: 'Juggle five balls for a minute',
      description: 'Keep five balls in the air for sixty seconds without a drop.',
      category: 'skill',
      difficulty: 'hard',
      stake: '0.2',
      days: 8,
      deactivated: true,
    },
    {
      creator: admin,
      title: MAJOR_TITLE,
      description: 'Do 100 push-ups in a public square in under ten minutes. Best video wins.',
      category: 'physical',
      difficulty: 'medium',
      stake: '0.1',
      days: 6,
      // Its voters back its own pool: only that gives a Major Dare vote (decision 028).
      contributions: [
        [alice, '0.5'],
        [bob, '0.2'],
        [carol, '0.1'],
      ],
      // Major dares take a free-text category (docs/product.md#major-dare-form-rules).
      afterwards: { isMajor: true, maxParticipants: 100, category: 'fitness' },
    },
  ];

  const { services, settled } = demoServices(deps);
  const pay = createPayer(deps, services);
  const ids = new Map<string, number>();
  for (const demo of demoDares) {
    const dareId = await pay.createDare(demo);
    ids.set(demo.title, dareId);
    for (const [user, amount] of demo.contributions ?? []) await pay.addToPool(user, dareId, amount);
    if (demo.afterwards) await setDemoDareColumns(db, dareId, demo.afterwards);
    if (demo.deactivated) await deactivate(services, dareId);
  }
  const dareId = (title: string) => ids.get(title)!;
  const coldShower = dareId('Cold shower for 7 days');
  await seedActivity({ ...deps, judge: admin }, services, {
    proofs: [
      {
        author: bob,
        dareId: coldShower,
        video: 'cold-shower',
        description: 'Day 1 and day 7, no warm water in between.',
        featured: true,
        voters: [alice.row, carol.row],
      },
      {
        author: carol,
        dareId: dareId('Solve a Rubik’s cube blindfolded'),
        video: 'rubiks-cube',
        description: 'One take, 2 minutes 41 under the blindfold.',
        featured: true,
        voters: [bob.row],
      },
      {
        author: carol,
        dareId: dareId('Sunrise summit hike'),
        video: 'summit-sunrise',
        description: 'First light from the top at 6:12.',
        voters: [alice.row],
        wins: true,
      },
      {
        author: bob,
        dareId: dareId(MAJOR_TITLE),
        video: 'push-ups',
        description: '100 push-ups on the market square in 8 minutes.',
        featured: true,
        voters: [alice.row, carol.row],
      },
    ],
    chat: [
      { user: alice.row, dareId: null, message: 'Who else is doing the cold shower week? Day 1 was brutal.' },
      { user: bob.row, dareId: null, message: 'The blindfolded cube proof is unreal, go vote for it.' },
      {
        user: carol.row,
        dareId: null,
        message: 'Summit prize arrived in my wallet the moment the guardian window closed!',
      },
      { user: bob.row, dareId: coldShower, message: 'Day 7 done, my proof is up.' },
      { user: alice.row, dareId: coldShower, message: 'Respect. Voted!' },
    ],
  });
  await settled();
  return {
    seeded: true,
    admin: { username: DEMO_ADMIN_USERNAME, password: adminPassword, generated: !deps.adminPassword },
  };
}

/**
 * The client side of the money path, run in-process with the demo wallets' keys: each payment is
 * the escrow program transaction the server builds (create_vault for a new dare, deposit for a
 * pool), signed by the demo wallet next to the platform's rent-payer signature, relayed, verified
 * and credited at step 7 as any user's.
 */
function createPayer(deps: SeedDeps, { payments, dares: daresService }: DemoServices) {
  async function pay(
    user: DemoUser,
    toWallet: string,
    amount: string,
    vault?: { deadline: string; kind: 'community' | 'major' },
  ): Promise<string> {
    const wallet = user.row.walletAddress as Address;
    const { transaction } = await payments.createTransaction(user.row, {
      fromWallet: wallet,
      toWallet,
      amount,
      ...vault,
    });
    const partiallySigned = getTransactionDecoder().decode(Buffer.from(transaction, 'base64'));
    const signed = getBase64EncodedWireTransaction(await signTransaction([user.keys], partiallySigned));
    return payments.sendTransaction(user.row, signed);
  }

  return {
    async createDare(demo: DemoDare): Promise<number> {
      const { publicKey } = await payments.reserveEscrow(demo.creator.row);
      const deadline = new Date(deps.clock().getTime() + demo.days * DAY_MS).toISOString();
      const isMajor = demo.afterwards?.isMajor === true;
      const signature = await pay(demo.creator, publicKey, demo.stake, {
        deadline,
        kind: isMajor ? 'major' : 'community',
      });
      const wallet = demo.creator.row.walletAddress!;
      if (isMajor) {
        // The Major Dare's vault pays 70/30: opened as the admin's Create Major Dare opens one.
        const { dareId } = await payments.credit({
          payer: demo.creator.row,
          wallet,
          signature,
          escrowWallet: publicKey,
          lamports: solToLamports(demo.stake),
          amountMismatch: 'The demo prize does not match its payment',
          credit: {
            kind: 'stake',
            dare: {
              title: demo.title,
              description: demo.description,
              difficulty: demo.difficulty,
              category: demo.category,
              deadline: new Date(deadline),
              maxParticipants: 10,
              isMajor: true,
            },
            ifEscrowFunded: 'refuse',
          },
        });
        return dareId;
      }
      const { dare } = await daresService.createDare(demo.creator.row, {
        title: demo.title,
        description: demo.description,
        stakeAmount: demo.stake,
        difficulty: demo.difficulty,
        category: demo.category,
        deadline,
        maxParticipants: 10,
        isPublic: true,
        tags: [],
        userWallet: wallet,
        transactionSignature: signature,
        escrowWalletAddress: publicKey,
      });
      return dare.id;
    },

    async addToPool(user: DemoUser, dareId: number, amount: string): Promise<void> {
      const dare = await daresService.getDare(dareId);
      const signature = await pay(user, dare.escrowWallet!, amount);
      await daresService.addToPool(user.row, dareId, {
        amount,
        userWallet: user.row.walletAddress!,
        transactionSignature: signature,
      });
    },
  };
}

/** The admin panel's Deactivate: refused unless every payer's refund landed on chain. */
async function deactivate(services: DemoServices, dareId: number): Promise<void> {
  const { refunds } = await services.admin.setDareStatus(dareId, 'cancelled');
  if (refunds.failed > 0)
    throw new Error(`the demo dare ${dareId} was not refunded: ${refunds.failureReason}`);
}
