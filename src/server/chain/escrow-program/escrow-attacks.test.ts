/**
 * Every attack in docs/program.md's list, each shown refused by the deployed program with no
 * lamport and no account byte changed (the attacker's transaction fee aside).
 */
import {
  AccountRole,
  type Address,
  getAddressDecoder,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import { beforeAll, describe, expect, it } from 'vitest';
import * as attack from '#test/support/chain/attacks';
import { SOL } from '#test/support/chain/escrow-chain';
import { EscrowV1Chain, type TestDare } from '#test/support/chain/escrow-v1-chain';
import { type CreateVaultInput, getCreateVaultInstruction } from '#test/support/chain/v1-vaults';
import { ESCROW_ERROR_CODE as E, escrowErrorMessage } from './errors';
import { findEntryAddress, findReceiptAddress, findVaultAddress } from './pda';
import { type LiteSvmRuntime, startLiteSvmRuntime } from './runtimes/litesvm';

let chain: EscrowV1Chain<LiteSvmRuntime>;
let attacker: KeyPairSigner;
beforeAll(async () => {
  chain = await EscrowV1Chain.start(await startLiteSvmRuntime());
  attacker = await chain.wallet(100n);
});

/** A dare with its creator's stake, one more payer and one entrant. */
async function scene(kind: 'community' | 'major' = 'community'): Promise<attack.Scene<TestDare>> {
  await chain.setTime(1_000_000n);
  const dare = await chain.createDare({ kind });
  const payer = await chain.wallet();
  const entrant = await chain.wallet(0n);
  await chain.must([
    await chain.depositInstruction(dare.vault, payer, SOL),
    await chain.enterInstruction(dare.vault, entrant),
  ]);
  return attack.sceneOf(chain, dare, payer, entrant);
}

const setup = (): attack.AttackSetup<TestDare> => ({ chain, attacker, scene, expectRefused });

/** Sends as the attacker; asserts the program's error and that nothing else changed. */
const expectRefused = (instructions: Instruction[], code: number, watch: Address[], feePayer = attacker) =>
  attack.expectRefused(
    chain,
    { message: escrowErrorMessage, logged: false },
    { instructions, code, watch, feePayer },
  );

const settle = (s: attack.Scene<TestDare>, winners = [s.entrant.address], moderator = chain.moderator) =>
  chain.settleInstruction(s.dare.vault, winners, moderator);
const refund = (s: attack.Scene<TestDare>, payer = s.payer.address) =>
  chain.refundInstruction(s.dare.vault, payer);
const cancel = (s: attack.Scene<TestDare>) => chain.cancelInstruction(s.dare.vault);
const depositOf = (s: attack.Scene<TestDare>, payer = s.payer, amount = SOL) =>
  chain.depositInstruction(s.dare.vault, payer, amount);

/** create_vault's input for a new dare: 1 SOL, the deadline in 100 s and refunds 100 s later. */
async function createInput(overrides: Partial<CreateVaultInput> = {}): Promise<CreateVaultInput> {
  const now = await chain.now();
  return chain.createInput({ deadline: now + 100n, refundAfter: now + 200n, amount: SOL, ...overrides });
}

/** The attacker's own vault at the scene's dare id: the attacker creates, lends the rent and moderates. */
const attackersVault = (s: attack.Scene<TestDare>, overrides: Partial<CreateVaultInput> = {}) =>
  createInput({
    creator: attacker,
    rentPayer: attacker,
    dareId: s.dare.dareId,
    moderator: attacker.address,
    ...overrides,
  });

describe('escrow attacks: signatures', () => {
  it('refuses a settle the moderator did not sign', async () => {
    const s = await scene();
    await expectRefused([attack.withoutSigner(await settle(s), 0)], E.MissingSignature, s.watch);
  });

  it('refuses a settle signed by someone who is not the moderator', async () => {
    const s = await scene();
    await expectRefused([await settle(s, [s.entrant.address], attacker)], E.NotModerator, s.watch);
  });

  it('refuses a cancel the moderator did not sign', async () => {
    const s = await scene();
    await expectRefused([attack.withoutSigner(await cancel(s), 0)], E.MissingSignature, s.watch);
  });

  it('refuses a deposit its payer did not sign', async () => {
    const s = await scene();
    const deposit = await depositOf(s);
    await expectRefused([attack.withoutSigner(deposit, 0)], E.MissingSignature, s.watch);
  });

  it('refuses an entry the entrant did not sign', async () => {
    const s = await scene();
    const other = await chain.wallet(0n);
    const enter = await chain.enterInstruction(s.dare.vault, other, attacker);
    await expectRefused([attack.withoutSigner(enter, 0)], E.MissingSignature, [...s.watch, other.address]);
  });
});

describe('escrow attacks: wrong, duplicated and fake accounts', () => {
  it('refuses to pay the vault to itself (duplicated account)', async () => {
    const s = await scene();
    await attack.vaultTwice(setup(), s, await settle(s), 2);
  });

  it('refuses a receipt passed where the vault belongs', () => attack.receiptPassedAsVault(setup()));

  it('refuses a fake vault owned by another program', async () => {
    const s = await scene();
    // The real vault stays open; the forgery claims to be refunding.
    const data = (await chain.data(s.dare.vault))!;
    data[3] = 2; // status: refunding
    // Any owner but the escrow program.
    const fake = await attack.forgedAccount(chain, {
      data,
      owner: chain.platform.address,
      lamports: 10n * SOL,
    });
    const forged = await chain.refundInstruction(fake, s.payer.address);
    await expectRefused([forged], E.InvalidVault, [...s.watch, fake]);
  });

  it('refuses a fake receipt owned by another program', () => attack.fakeReceipt(setup()));

  it('refuses a receipt of another vault', () => attack.receiptOfAnotherVault(setup()));

  it('refuses to refund a receipt to another wallet', async () => {
    await attack.refundToAnotherWallet(setup(), await attack.cancelledScene(setup()));
  });

  it("refuses to send a closing account's rent to someone other than its rent payer", async () => {
    await attack.rentToAnotherPayer(setup(), await attack.cancelledScene(setup()));
  });

  it('refuses a fake System program', () => attack.fakeSystemProgram(setup()));

  it('refuses a read-only vault', async () => {
    const s = await scene();
    await attack.readOnly(setup(), s, await settle(s), 1);
  });
});

describe('escrow attacks: seeds and bumps', () => {
  it('refuses a vault created with a wrong bump', async () => {
    const input = await createInput();
    const create = await getCreateVaultInstruction(input);
    const data = new Uint8Array(create.data!);
    data[90] = (data[90]! + 255) % 256; // vault bump
    const vault = (await findVaultAddress(chain.programId, input.dareId)).address;
    await expectRefused([attack.withData(create, data)], E.WrongAddress, [
      input.creator.address,
      vault,
      chain.platform.address,
    ]);
  });

  it("refuses a vault at another dare's address (wrong seeds)", async () => {
    const input = await createInput({ dareId: new Uint8Array(32).fill(1) });
    const create = await getCreateVaultInstruction(input);
    const elsewhere = (await findVaultAddress(chain.programId, new Uint8Array(32).fill(2))).address;
    await expectRefused([attack.withAccount(create, 2, elsewhere)], E.WrongAddress, [
      input.creator.address,
      chain.platform.address,
    ]);
  });

  it("refuses an entry at another entrant's address", async () => {
    const s = await scene();
    const other = await chain.wallet(0n);
    const enter = await chain.enterInstruction(s.dare.vault, other);
    const stolen = (await findEntryAddress(chain.programId, s.dare.vault, attacker.address)).address;
    await expectRefused([attack.withAccount(enter, 3, stolen)], E.WrongAddress, [...s.watch, other.address]);
  });

  it('refuses a receipt created with a wrong bump', async () => {
    await attack.receiptAtWrongBump(setup(), await scene());
  });
});

describe('escrow attacks: amounts and instruction data', () => {
  it('refuses a deposit that would overflow the receipt', async () => {
    await attack.depositOverflow(setup(), await scene());
  });

  it('refuses a deposit under 0.01 SOL', async () => {
    await attack.depositUnderMinimum(setup(), await scene());
  });

  it('refuses short and long instruction data for every instruction', async () => {
    const s = await scene();
    const instructions: Instruction[] = [
      await getCreateVaultInstruction(
        await createInput({ creator: s.payer, dareId: new Uint8Array(32).fill(7) }),
      ),
      await depositOf(s),
      await chain.enterInstruction(s.dare.vault, s.payer),
      await settle(s),
      await cancel(s),
      await refund(s),
      await chain.closeEntryInstruction(s.dare.vault, s.entrant.address),
      await chain.closeReceiptInstruction(s.dare.vault, s.payer.address),
    ];
    await attack.wrongDataLengths(setup(), s, instructions, { any: instructions[3]!, unknownTags: [99] });
  });
});

describe('escrow attacks: timing', () => {
  it('refuses a deposit and an entry after the deadline', async () => {
    const s = await scene();
    await chain.setTime(s.dare.deadline);
    await expectRefused([await depositOf(s)], E.DeadlinePassed, s.watch);
    const late = await chain.wallet(0n);
    const enter = await chain.enterInstruction(s.dare.vault, late);
    await expectRefused([enter], E.DeadlinePassed, [...s.watch, late.address]);
  });

  it('refuses a vault whose deadline is already past', async () => {
    const now = await chain.now();
    const input = await createInput({ deadline: now, refundAfter: now + 100n });
    const create = await getCreateVaultInstruction(input);
    await expectRefused([create], E.DeadlineInPast, [input.creator.address, chain.platform.address]);
  });
});

describe('escrow attacks: refunds', () => {
  it('refuses a refund before it is due', async () => {
    await attack.refundBeforeDue(setup(), await scene());
  });

  it('refuses a second refund of the same receipt', () => attack.refundTwice(setup()));

  it('refuses a refund after settlement', async () => {
    const s = await scene();
    await chain.must([await settle(s)]);
    await chain.setTime(s.dare.refundAfter);
    await expectRefused([await refund(s)], E.VaultNotOpen, s.watch);
  });
});

describe('escrow attacks: payouts', () => {
  /** A settle once `ending` (a settle, a cancel) has ended the vault. */
  async function settleAfter(ending: (s: attack.Scene<TestDare>) => Instruction | Promise<Instruction>) {
    const s = await scene();
    await chain.must([await ending(s)]);
    await expectRefused([await settle(s)], E.VaultNotOpen, s.watch);
  }

  it('refuses to settle twice', () => settleAfter((s) => settle(s)));

  it('refuses to pay a wallet that did not enter', async () => {
    const s = await scene();
    // The attacker passes the real entrant's entry next to their own wallet...
    const settleToAttacker = attack.withAccount(await settle(s), 2, attacker.address, AccountRole.WRITABLE);
    await expectRefused([settleToAttacker], E.NotAnEntrant, s.watch);
    // ...or the (empty) entry address of their own wallet.
    await expectRefused([await settle(s, [attacker.address])], E.InvalidEntry, s.watch);
  });

  it('refuses to settle after cancel', () => settleAfter(cancel));

  it('refuses to settle once refunds are due, alone or racing a refund in one transaction', async () => {
    const s = await scene();
    await chain.setTime(s.dare.refundAfter);
    await expectRefused([await settle(s)], E.SettleWindowClosed, s.watch);
    await expectRefused([await settle(s), await refund(s)], E.SettleWindowClosed, s.watch);
    await expectRefused([await refund(s), await settle(s)], E.VaultNotOpen, s.watch);
  });

  it('refuses to close receipts before settlement and entries while open', () =>
    attack.closesBeforeTheEnd(setup()));
});

describe('escrow attacks: closing and reviving, pre-funded addresses', () => {
  it('refuses to refund a receipt closed and re-funded in the same transaction', () =>
    attack.receiptRevivedInOneTransaction(setup()));

  it('leaves nothing to revive: a vault recreated at a closed address starts empty', async () => {
    const s = await scene();
    await chain.must([await cancel(s)]);
    const closeEntry = await chain.closeEntryInstruction(s.dare.vault, s.entrant.address);
    const now = await chain.now();
    const recreate = await getCreateVaultInstruction(
      await attackersVault(s, { deadline: now + 10n, refundAfter: now + 10n, amount: SOL / 100n }),
    );
    await chain.must(
      [closeEntry, await refund(s, s.dare.creator.address), await refund(s), recreate],
      attacker,
    );
    const revived = (await chain.vault(s.dare.vault))!;
    expect(revived).toMatchObject({
      moderator: attacker.address,
      receiptCount: 1,
      entryCount: 0,
      total: SOL / 100n,
    });
    // The old payer's receipt is gone: nothing of the old dare can be claimed from the new vault.
    await chain.setTime(s.dare.deadline + 100_000n);
    await expectRefused([await refund(s)], E.InvalidReceipt, s.watch);
  });

  it('creates a vault, receipt and entry at addresses that already hold lamports, the surplus going to the winner', async () => {
    await chain.setTime(1_000_000n);
    const creator = await chain.wallet();
    const entrant = await chain.wallet(0n);
    const dareId = crypto.getRandomValues(new Uint8Array(32));
    const vault = (await findVaultAddress(chain.programId, dareId)).address;
    const receipt = (await findReceiptAddress(chain.programId, vault, creator.address)).address;
    const entry = (await findEntryAddress(chain.programId, vault, entrant.address)).address;
    // The smallest gift a System account may hold; what lands in a receipt or entry goes back with its rent.
    const gift = chain.runtime.svm.minimumBalanceForRentExemption(0n);
    for (const address of [vault, receipt, entry]) await chain.gift(attacker, address, gift);
    await chain.must([
      await getCreateVaultInstruction(await createInput({ creator, dareId })),
      await chain.enterInstruction(vault, entrant),
    ]);
    const rent = (await chain.vault(vault))!.rent;
    expect(await chain.balance(vault)).toBe(rent + SOL + gift);
    expect((await chain.receipt(receipt))!.amount).toBe(SOL);
    expect((await chain.entry(entry))!.entrant).toBe(entrant.address);
    await chain.must([await chain.settleInstruction(vault, [entrant.address])]);
    expect(await chain.balance(entrant.address)).toBe(SOL + gift);
  });

  it('refuses to create a vault that already exists', async () => {
    const s = await scene();
    const again = await getCreateVaultInstruction(await attackersVault(s));
    await expectRefused([again], E.AlreadyExists, s.watch);
  });
});

it('decodes addresses the same way the program stores them', () => {
  expect(getAddressDecoder().decode(new Uint8Array(32))).toBe('11111111111111111111111111111111');
});
