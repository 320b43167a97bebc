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
  lamports,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { beforeAll, describe, expect, it } from 'vitest';
import { EscrowTestChain, SOL, type TestDare } from '#test/support/chain/escrow-v1-chain';
import {
  getCreateVaultInstruction,
  getDepositInstruction,
  getEnterInstruction,
  getSettleInstruction,
} from '#test/support/chain/v1-vaults';
import { ESCROW_ERROR_CODE as E, escrowErrorMessage } from './errors';
import {
  getCancelInstruction,
  getCloseEntryInstruction,
  getCloseReceiptInstruction,
  getRefundInstruction,
} from './instructions';
import { findEntryAddress, findReceiptAddress, findVaultAddress } from './pda';

let chain: EscrowTestChain;
let attacker: KeyPairSigner;
beforeAll(async () => {
  chain = await EscrowTestChain.start();
  attacker = await chain.wallet(100n);
});

interface Scene {
  dare: TestDare;
  payer: KeyPairSigner;
  entrant: KeyPairSigner;
  receipt: Address;
  entry: Address;
}

/** A dare with its creator's stake, one more payer and one entrant. */
async function scene(kind: 'community' | 'major' = 'community'): Promise<Scene> {
  chain.setTime(1_000_000n);
  const dare = await chain.createDare({ kind });
  const payer = await chain.wallet();
  const entrant = await chain.wallet(0n);
  await chain.must([
    await getDepositInstruction({
      programId: chain.programId,
      vault: dare.vault,
      payer,
      rentPayer: chain.platform,
      amount: SOL,
    }),
    await getEnterInstruction({
      programId: chain.programId,
      vault: dare.vault,
      entrant,
      rentPayer: chain.platform,
    }),
  ]);
  return {
    dare,
    payer,
    entrant,
    receipt: (await findReceiptAddress(chain.programId, dare.vault, payer.address)).address,
    entry: (await findEntryAddress(chain.programId, dare.vault, entrant.address)).address,
  };
}

function snapshot(addresses: Address[]) {
  return addresses.map((address) => ({
    address,
    balance: chain.balance(address),
    data: chain.data(address),
    owner: chain.owner(address),
  }));
}

/** Sends as the attacker; asserts the program's error and that nothing else changed. */
async function expectRefused(
  instructions: Instruction[],
  code: number,
  watch: Address[],
  feePayer = attacker,
) {
  const accounts = new Set<Address>(watch);
  for (const instruction of instructions)
    for (const meta of instruction.accounts ?? []) accounts.add(meta.address);
  accounts.delete(feePayer.address);
  const before = snapshot([...accounts]);
  const feePayerBefore = chain.balance(feePayer.address);
  const feesBefore = chain.feesPaidBy(feePayer.address);
  const result = await chain.send(instructions, feePayer);
  expect(result.ok, 'the transaction should fail').toBe(false);
  if (!result.ok) expect(result.code, `${result.error} (wanted ${escrowErrorMessage(code)})`).toBe(code);
  expect(snapshot([...accounts])).toEqual(before);
  expect(chain.balance(feePayer.address)).toBe(
    feePayerBefore - (chain.feesPaidBy(feePayer.address) - feesBefore),
  );
}

function watchOf(s: Scene): Address[] {
  return [
    s.dare.vault,
    s.receipt,
    s.entry,
    s.payer.address,
    s.entrant.address,
    s.dare.creator.address,
    chain.platform.address,
  ];
}

const settle = (s: Scene, winners = [s.entrant.address], moderator = chain.moderator) =>
  getSettleInstruction({ programId: chain.programId, vault: s.dare.vault, moderator, winners });

const refund = (s: Scene, payer = s.payer.address) =>
  getRefundInstruction({
    programId: chain.programId,
    vault: s.dare.vault,
    payer,
    receiptRentPayer: chain.platform.address,
    vaultRentPayer: chain.platform.address,
  });

const cancel = (s: Scene) =>
  getCancelInstruction({ programId: chain.programId, vault: s.dare.vault, moderator: chain.moderator });

/** The same instruction with account `index` no longer signing (the signature is simply absent). */
function withoutSigner(instruction: Instruction, index: number): Instruction {
  const accounts = [...(instruction.accounts ?? [])];
  const meta = accounts[index]!;
  accounts[index] = {
    address: meta.address,
    role: meta.role === AccountRole.WRITABLE_SIGNER ? AccountRole.WRITABLE : AccountRole.READONLY,
  };
  return { ...instruction, accounts };
}

function withAccount(
  instruction: Instruction,
  index: number,
  address: Address,
  role = instruction.accounts![index]!.role,
): Instruction {
  const accounts = [...(instruction.accounts ?? [])];
  accounts[index] = { address, role: role & ~0b10 } as (typeof accounts)[number]; // a plain address cannot sign
  return { ...instruction, accounts };
}

function withData(instruction: Instruction, data: Uint8Array): Instruction {
  return { ...instruction, data };
}

describe('escrow attacks: signatures', () => {
  it('refuses a settle the moderator did not sign', async () => {
    const s = await scene();
    await expectRefused([withoutSigner(await settle(s), 0)], E.MissingSignature, watchOf(s));
  });

  it('refuses a settle signed by someone who is not the moderator', async () => {
    const s = await scene();
    await expectRefused([await settle(s, [s.entrant.address], attacker)], E.NotModerator, watchOf(s));
  });

  it('refuses a cancel the moderator did not sign', async () => {
    const s = await scene();
    await expectRefused([withoutSigner(await cancel(s), 0)], E.MissingSignature, watchOf(s));
  });

  it('refuses a deposit its payer did not sign', async () => {
    const s = await scene();
    const deposit = await getDepositInstruction({
      programId: chain.programId,
      vault: s.dare.vault,
      payer: s.payer,
      rentPayer: chain.platform,
      amount: SOL,
    });
    await expectRefused([withoutSigner(deposit, 0)], E.MissingSignature, watchOf(s));
  });

  it('refuses an entry the entrant did not sign', async () => {
    const s = await scene();
    const other = await chain.wallet(0n);
    const enter = await getEnterInstruction({
      programId: chain.programId,
      vault: s.dare.vault,
      entrant: other,
      rentPayer: attacker,
    });
    await expectRefused([withoutSigner(enter, 0)], E.MissingSignature, [...watchOf(s), other.address]);
  });
});

describe('escrow attacks: wrong, duplicated and fake accounts', () => {
  it('refuses to pay the vault to itself (duplicated account)', async () => {
    const s = await scene();
    await expectRefused([withAccount(await settle(s), 2, s.dare.vault)], E.DuplicateAccount, watchOf(s));
  });

  it('refuses a receipt passed where the vault belongs', async () => {
    const s = await scene();
    await expectRefused([withAccount(await refund(s), 0, s.receipt)], E.InvalidVault, watchOf(s));
  });

  it('refuses a fake vault owned by another program', async () => {
    const s = await scene();
    // The real vault stays open; the forgery claims to be refunding.
    const fake = (await chain.wallet(0n)).address;
    const vaultData = chain.data(s.dare.vault)!;
    vaultData[3] = 2; // status: refunding
    chain.svm.setAccount({
      address: fake,
      lamports: lamports(10n * SOL),
      programAddress: chain.platform.address, // any owner but the escrow program
      executable: false,
      data: vaultData,
      space: BigInt(vaultData.length),
    });
    const forged = await getRefundInstruction({
      programId: chain.programId,
      vault: fake,
      payer: s.payer.address,
      receiptRentPayer: chain.platform.address,
      vaultRentPayer: chain.platform.address,
    });
    await expectRefused([forged], E.InvalidVault, [...watchOf(s), fake]);
  });

  it('refuses a fake receipt owned by another program', async () => {
    const s = await scene();
    await chain.must([await cancel(s)]);
    const fake = (await chain.wallet(0n)).address;
    const receiptData = chain.data(s.receipt)!;
    new DataView(receiptData.buffer).setBigUint64(104, 100n * SOL, true); // amount: far more than paid
    chain.svm.setAccount({
      address: fake,
      lamports: lamports(SOL),
      programAddress: attacker.address,
      executable: false,
      data: receiptData,
      space: BigInt(receiptData.length),
    });
    const forged = withAccount(await refund(s), 1, fake);
    await expectRefused([forged], E.InvalidReceipt, [...watchOf(s), fake]);
  });

  it('refuses a receipt of another vault', async () => {
    const s = await scene();
    const other = await scene();
    await chain.must([await cancel(s)]);
    await expectRefused([withAccount(await refund(s), 1, other.receipt)], E.InvalidReceipt, [
      ...watchOf(s),
      ...watchOf(other),
    ]);
  });

  it('refuses to refund a receipt to another wallet', async () => {
    const s = await scene();
    await chain.must([await cancel(s)]);
    const receiptOfPayer = await refund(s);
    await expectRefused([withAccount(receiptOfPayer, 2, attacker.address)], E.WrongPayer, watchOf(s));
  });

  it("refuses to send a closing account's rent to someone other than its rent payer", async () => {
    const s = await scene();
    await chain.must([await cancel(s)]);
    await expectRefused([withAccount(await refund(s), 3, attacker.address)], E.WrongRentPayer, watchOf(s));
    await expectRefused([withAccount(await refund(s), 4, attacker.address)], E.WrongRentPayer, watchOf(s));
  });

  it('refuses a fake System program', async () => {
    const s = await scene();
    const deposit = await getDepositInstruction({
      programId: chain.programId,
      vault: s.dare.vault,
      payer: s.payer,
      rentPayer: chain.platform,
      amount: SOL,
    });
    await expectRefused(
      [withAccount(deposit, 4, chain.programId, AccountRole.READONLY)],
      E.NotSystemProgram,
      watchOf(s),
    );
  });

  it('refuses a read-only vault', async () => {
    const s = await scene();
    await expectRefused(
      [withAccount(await settle(s), 1, s.dare.vault, AccountRole.READONLY)],
      E.NotWritable,
      watchOf(s),
    );
  });
});

describe('escrow attacks: seeds and bumps', () => {
  it('refuses a vault created with a wrong bump', async () => {
    const creator = await chain.wallet();
    const dareId = crypto.getRandomValues(new Uint8Array(32));
    const create = await getCreateVaultInstruction({
      programId: chain.programId,
      creator,
      rentPayer: chain.platform,
      dareId,
      moderator: chain.moderator.address,
      deadline: chain.now() + 100n,
      refundAfter: chain.now() + 200n,
      amount: SOL,
      kind: 'community',
    });
    const data = new Uint8Array(create.data!);
    data[90] = (data[90]! + 255) % 256; // vault bump
    const vault = (await findVaultAddress(chain.programId, dareId)).address;
    await expectRefused([withData(create, data)], E.WrongAddress, [
      creator.address,
      vault,
      chain.platform.address,
    ]);
  });

  it("refuses a vault at another dare's address (wrong seeds)", async () => {
    const creator = await chain.wallet();
    const create = await getCreateVaultInstruction({
      programId: chain.programId,
      creator,
      rentPayer: chain.platform,
      dareId: new Uint8Array(32).fill(1),
      moderator: chain.moderator.address,
      deadline: chain.now() + 100n,
      refundAfter: chain.now() + 200n,
      amount: SOL,
      kind: 'community',
    });
    const elsewhere = (await findVaultAddress(chain.programId, new Uint8Array(32).fill(2))).address;
    await expectRefused([withAccount(create, 2, elsewhere)], E.WrongAddress, [
      creator.address,
      chain.platform.address,
    ]);
  });

  it("refuses an entry at another entrant's address", async () => {
    const s = await scene();
    const other = await chain.wallet(0n);
    const enter = await getEnterInstruction({
      programId: chain.programId,
      vault: s.dare.vault,
      entrant: other,
      rentPayer: chain.platform,
    });
    const stolen = (await findEntryAddress(chain.programId, s.dare.vault, attacker.address)).address;
    await expectRefused([withAccount(enter, 3, stolen)], E.WrongAddress, [...watchOf(s), other.address]);
  });

  it('refuses a receipt created with a wrong bump', async () => {
    const s = await scene();
    const newPayer = await chain.wallet();
    const deposit = await getDepositInstruction({
      programId: chain.programId,
      vault: s.dare.vault,
      payer: newPayer,
      rentPayer: chain.platform,
      amount: SOL,
    });
    const data = new Uint8Array(deposit.data!);
    data[9] = (data[9]! + 1) % 256;
    await expectRefused([withData(deposit, data)], E.WrongAddress, [...watchOf(s), newPayer.address]);
  });
});

describe('escrow attacks: amounts and instruction data', () => {
  it('refuses a deposit that would overflow the receipt', async () => {
    const s = await scene();
    const deposit = await getDepositInstruction({
      programId: chain.programId,
      vault: s.dare.vault,
      payer: s.payer,
      rentPayer: chain.platform,
      amount: 2n ** 64n - 1n,
    });
    await expectRefused([deposit], E.Overflow, watchOf(s));
  });

  it('refuses a deposit under 0.01 SOL', async () => {
    const s = await scene();
    const deposit = await getDepositInstruction({
      programId: chain.programId,
      vault: s.dare.vault,
      payer: s.payer,
      rentPayer: chain.platform,
      amount: 9_999_999n,
    });
    await expectRefused([deposit], E.AmountTooSmall, watchOf(s));
  });

  it('refuses short and long instruction data for every instruction', async () => {
    const s = await scene();
    const instructions: Instruction[] = [
      await getCreateVaultInstruction({
        programId: chain.programId,
        creator: s.payer,
        rentPayer: chain.platform,
        dareId: new Uint8Array(32).fill(7),
        moderator: chain.moderator.address,
        deadline: chain.now() + 100n,
        refundAfter: chain.now() + 200n,
        amount: SOL,
        kind: 'community',
      }),
      await getDepositInstruction({
        programId: chain.programId,
        vault: s.dare.vault,
        payer: s.payer,
        rentPayer: chain.platform,
        amount: SOL,
      }),
      await getEnterInstruction({
        programId: chain.programId,
        vault: s.dare.vault,
        entrant: s.payer,
        rentPayer: chain.platform,
      }),
      await settle(s),
      await cancel(s),
      await refund(s),
      await getCloseEntryInstruction({
        programId: chain.programId,
        vault: s.dare.vault,
        entrant: s.entrant.address,
        entryRentPayer: chain.platform.address,
        vaultRentPayer: chain.platform.address,
      }),
      await getCloseReceiptInstruction({
        programId: chain.programId,
        vault: s.dare.vault,
        payer: s.payer.address,
        receiptRentPayer: chain.platform.address,
        vaultRentPayer: chain.platform.address,
      }),
    ];
    for (const instruction of instructions) {
      const data = new Uint8Array(instruction.data!);
      const longer = new Uint8Array(data.length + 1);
      longer.set(data);
      await expectRefused([withData(instruction, longer)], E.InvalidDataLength, watchOf(s));
      if (data.length > 1)
        await expectRefused([withData(instruction, data.subarray(0, -1))], E.InvalidDataLength, watchOf(s));
    }
    await expectRefused([withData(instructions[3]!, new Uint8Array())], E.InvalidDataLength, watchOf(s));
    await expectRefused([withData(instructions[3]!, new Uint8Array([99]))], E.UnknownInstruction, watchOf(s));
  });
});

describe('escrow attacks: timing', () => {
  it('refuses a deposit and an entry after the deadline', async () => {
    const s = await scene();
    chain.setTime(s.dare.deadline);
    const deposit = await getDepositInstruction({
      programId: chain.programId,
      vault: s.dare.vault,
      payer: s.payer,
      rentPayer: chain.platform,
      amount: SOL,
    });
    await expectRefused([deposit], E.DeadlinePassed, watchOf(s));
    const late = await chain.wallet(0n);
    const enter = await getEnterInstruction({
      programId: chain.programId,
      vault: s.dare.vault,
      entrant: late,
      rentPayer: chain.platform,
    });
    await expectRefused([enter], E.DeadlinePassed, [...watchOf(s), late.address]);
  });

  it('refuses a vault whose deadline is already past', async () => {
    const creator = await chain.wallet();
    const create = await getCreateVaultInstruction({
      programId: chain.programId,
      creator,
      rentPayer: chain.platform,
      dareId: crypto.getRandomValues(new Uint8Array(32)),
      moderator: chain.moderator.address,
      deadline: chain.now(),
      refundAfter: chain.now() + 100n,
      amount: SOL,
      kind: 'community',
    });
    await expectRefused([create], E.DeadlineInPast, [creator.address, chain.platform.address]);
  });
});

describe('escrow attacks: refunds', () => {
  it('refuses a refund before it is due', async () => {
    const s = await scene();
    chain.setTime(s.dare.refundAfter - 1n);
    await expectRefused([await refund(s)], E.RefundNotDue, watchOf(s));
  });

  it('refuses a second refund of the same receipt', async () => {
    const s = await scene();
    await chain.must([await cancel(s)]);
    await chain.must([await refund(s)]);
    await expectRefused([await refund(s)], E.InvalidReceipt, watchOf(s));
  });

  it('refuses a refund after settlement', async () => {
    const s = await scene();
    await chain.must([await settle(s)]);
    chain.setTime(s.dare.refundAfter);
    await expectRefused([await refund(s)], E.VaultNotOpen, watchOf(s));
  });
});

describe('escrow attacks: payouts', () => {
  it('refuses to settle twice', async () => {
    const s = await scene();
    await chain.must([await settle(s)]);
    await expectRefused([await settle(s)], E.VaultNotOpen, watchOf(s));
  });

  it('refuses to pay a wallet that did not enter', async () => {
    const s = await scene();
    // The attacker passes the real entrant's entry next to their own wallet...
    const settleToAttacker = withAccount(await settle(s), 2, attacker.address, AccountRole.WRITABLE);
    await expectRefused([settleToAttacker], E.NotAnEntrant, watchOf(s));
    // ...or the (empty) entry address of their own wallet.
    await expectRefused([await settle(s, [attacker.address])], E.InvalidEntry, watchOf(s));
  });

  it('refuses to settle after cancel', async () => {
    const s = await scene();
    await chain.must([await cancel(s)]);
    await expectRefused([await settle(s)], E.VaultNotOpen, watchOf(s));
  });

  it('refuses to settle once refunds are due, alone or racing a refund in one transaction', async () => {
    const s = await scene();
    chain.setTime(s.dare.refundAfter);
    await expectRefused([await settle(s)], E.SettleWindowClosed, watchOf(s));
    await expectRefused([await settle(s), await refund(s)], E.SettleWindowClosed, watchOf(s));
    await expectRefused([await refund(s), await settle(s)], E.VaultNotOpen, watchOf(s));
  });

  it('refuses to close receipts before settlement and entries while open', async () => {
    const s = await scene();
    const closeReceipt = await getCloseReceiptInstruction({
      programId: chain.programId,
      vault: s.dare.vault,
      payer: s.payer.address,
      receiptRentPayer: chain.platform.address,
      vaultRentPayer: chain.platform.address,
    });
    await expectRefused([closeReceipt], E.NotSettled, watchOf(s));
    const closeEntry = await getCloseEntryInstruction({
      programId: chain.programId,
      vault: s.dare.vault,
      entrant: s.entrant.address,
      entryRentPayer: chain.platform.address,
      vaultRentPayer: chain.platform.address,
    });
    await expectRefused([closeEntry], E.StillOpen, watchOf(s));
  });
});

describe('escrow attacks: closing and reviving, pre-funded addresses', () => {
  it('refuses to refund a receipt closed and re-funded in the same transaction', async () => {
    const s = await scene();
    await chain.must([await cancel(s)]);
    const revive = getTransferSolInstruction({ source: attacker, destination: s.receipt, amount: SOL });
    await expectRefused([await refund(s), revive, await refund(s)], E.InvalidReceipt, watchOf(s));
  });

  it('leaves nothing to revive: a vault recreated at a closed address starts empty', async () => {
    const s = await scene();
    await chain.must([await cancel(s)]);
    const closeEntry = await getCloseEntryInstruction({
      programId: chain.programId,
      vault: s.dare.vault,
      entrant: s.entrant.address,
      entryRentPayer: chain.platform.address,
      vaultRentPayer: chain.platform.address,
    });
    const recreate = await getCreateVaultInstruction({
      programId: chain.programId,
      creator: attacker,
      rentPayer: attacker,
      dareId: s.dare.dareId,
      moderator: attacker.address,
      deadline: chain.now() + 10n,
      refundAfter: chain.now() + 10n,
      amount: SOL / 100n,
      kind: 'community',
    });
    await chain.must(
      [closeEntry, await refund(s, s.dare.creator.address), await refund(s), recreate],
      attacker,
    );
    const revived = chain.vault(s.dare.vault)!;
    expect(revived).toMatchObject({
      moderator: attacker.address,
      receiptCount: 1,
      entryCount: 0,
      total: SOL / 100n,
    });
    // The old payer's receipt is gone: nothing of the old dare can be claimed from the new vault.
    chain.setTime(s.dare.deadline + 100_000n);
    await expectRefused([await refund(s)], E.InvalidReceipt, watchOf(s));
  });

  it('creates a vault, receipt and entry at addresses that already hold lamports, the surplus going to the winner', async () => {
    chain.setTime(1_000_000n);
    const creator = await chain.wallet();
    const entrant = await chain.wallet(0n);
    const dareId = crypto.getRandomValues(new Uint8Array(32));
    const vault = (await findVaultAddress(chain.programId, dareId)).address;
    const receipt = (await findReceiptAddress(chain.programId, vault, creator.address)).address;
    const entry = (await findEntryAddress(chain.programId, vault, entrant.address)).address;
    // The smallest gift a System account may hold; what lands in a receipt or entry goes back with its rent.
    const gift = chain.svm.minimumBalanceForRentExemption(0n);
    for (const address of [vault, receipt, entry]) await chain.gift(attacker, address, gift);
    await chain.must([
      await getCreateVaultInstruction({
        programId: chain.programId,
        creator,
        rentPayer: chain.platform,
        dareId,
        moderator: chain.moderator.address,
        deadline: chain.now() + 100n,
        refundAfter: chain.now() + 200n,
        amount: SOL,
        kind: 'community',
      }),
      await getEnterInstruction({ programId: chain.programId, vault, entrant, rentPayer: chain.platform }),
    ]);
    const rent = chain.vault(vault)!.rent;
    expect(chain.balance(vault)).toBe(rent + SOL + gift);
    expect(chain.receipt(receipt)!.amount).toBe(SOL);
    expect(chain.entry(entry)!.entrant).toBe(entrant.address);
    await chain.must([
      await getSettleInstruction({
        programId: chain.programId,
        vault,
        moderator: chain.moderator,
        winners: [entrant.address],
      }),
    ]);
    expect(chain.balance(entrant.address)).toBe(SOL + gift);
  });

  it('refuses to create a vault that already exists', async () => {
    const s = await scene();
    const again = await getCreateVaultInstruction({
      programId: chain.programId,
      creator: attacker,
      rentPayer: attacker,
      dareId: s.dare.dareId,
      moderator: attacker.address,
      deadline: chain.now() + 100n,
      refundAfter: chain.now() + 200n,
      amount: SOL,
      kind: 'community',
    });
    await expectRefused([again], E.AlreadyExists, watchOf(s));
  });
});

it('decodes addresses the same way the program stores them', () => {
  expect(getAddressDecoder().decode(new Uint8Array(32))).toBe('11111111111111111111111111111111');
});
