/**
 * What the attack tests of both program versions check, and how they tamper with a valid
 * instruction: each attack refused by the deployed program with its own error code, logged as the
 * program logs it, and no lamport and no account byte changed (the attacker's fee aside).
 */
import { AccountRole, type Address, type Instruction, type KeyPairSigner } from '@solana/kit';
import { expect } from 'vitest';
import type { EscrowChain } from '#test/support/chain/escrow-chain';

/** A dare with its creator's stake, one more payer and one entrant, and the accounts an attack must not touch. */
export interface Scene<D extends { vault: Address; creator: KeyPairSigner }> {
  dare: D;
  payer: KeyPairSigner;
  entrant: KeyPairSigner;
  receipt: Address;
  entry: Address;
  watch: Address[];
}

export async function sceneOf<D extends { vault: Address; creator: KeyPairSigner }>(
  chain: EscrowChain,
  dare: D,
  payer: KeyPairSigner,
  entrant: KeyPairSigner,
): Promise<Scene<D>> {
  const receipt = await chain.receiptAddress(dare.vault, payer.address);
  const entry = await chain.entryAddress(dare.vault, entrant.address);
  const watch = [dare.vault, receipt, entry, payer.address, entrant.address, dare.creator.address];
  watch.push(chain.platform.address);
  return { dare, payer, entrant, receipt, entry, watch };
}

/** How a program version names its errors, and whether every refusal logs its code (v2 does). */
export interface ProgramErrors {
  message: (code: number) => string;
  logged: boolean;
}

/**
 * Sends as `feePayer`; asserts the program's error `code` and that nothing else changed: the
 * instructions' accounts and `watch` stay byte for byte as they were, and the fee payer is down by
 * its fee only.
 */
export async function expectRefused(
  chain: EscrowChain,
  errors: ProgramErrors,
  attempt: { instructions: Instruction[]; code: number; watch: Address[]; feePayer: KeyPairSigner },
): Promise<void> {
  const { instructions, code, feePayer } = attempt;
  const accounts = new Set<Address>(attempt.watch);
  for (const instruction of instructions)
    for (const meta of instruction.accounts ?? []) accounts.add(meta.address);
  accounts.delete(feePayer.address);
  const snapshot = () =>
    Promise.all([...accounts].map(async (address) => [address, await chain.account(address)]));
  const before = await snapshot();
  const feePayerBefore = await chain.balance(feePayer.address);
  const feesBefore = chain.feesPaidBy(feePayer.address);
  const result = await chain.send(instructions, feePayer);
  expect(result.ok, 'the transaction should fail').toBe(false);
  if (!result.ok) {
    expect(result.code, `${result.error} (wanted ${errors.message(code)})`).toBe(code);
    if (errors.logged)
      expect(result.logs.join('\n'), JSON.stringify(instructions.map((i) => [...(i.data ?? [])]))).toContain(
        `Program log: 0xda7e, 0x${code.toString(16)}, 0x0, 0x0, 0x0`,
      );
  }
  expect(await snapshot()).toEqual(before);
  expect(await chain.balance(feePayer.address)).toBe(
    feePayerBefore - (chain.feesPaidBy(feePayer.address) - feesBefore),
  );
}

/** The same instruction with account `index` no longer signing (the signature is simply absent). */
export function withoutSigner(instruction: Instruction, index: number): Instruction {
  const accounts = [...(instruction.accounts ?? [])];
  const meta = accounts[index]!;
  accounts[index] = {
    address: meta.address,
    role: meta.role === AccountRole.WRITABLE_SIGNER ? AccountRole.WRITABLE : AccountRole.READONLY,
  };
  return { ...instruction, accounts };
}

export function withAccount(
  instruction: Instruction,
  index: number,
  address: Address,
  role = instruction.accounts![index]!.role,
): Instruction {
  const accounts = [...(instruction.accounts ?? [])];
  accounts[index] = { address, role: role & ~0b10 } as (typeof accounts)[number]; // a plain address cannot sign
  return { ...instruction, accounts };
}

export function withData(instruction: Instruction, data: Uint8Array): Instruction {
  return { ...instruction, data };
}
