/**
 * What the property tests of both program versions share: a seeded random source, and the model a
 * dare is checked against step by step (what each receipt holds, who entered, what was deposited
 * and refunded, lamports strangers sent, what the winners were paid). The model takes the random
 * steps both versions take alike and knows whether each must succeed; a test adds its own (its
 * entries and payouts, through `attempt` and `payout`) to a table of steps that `runSteps` draws
 * from. A failure names the seed and the steps so far.
 */
import type { Address, Instruction, KeyPairSigner } from '@solana/kit';
import { expect } from 'vitest';
import { type DareKind, MIN_DEPOSIT_LAMPORTS } from '#server/chain/escrow-program/layout';
import type { EscrowChain } from '#test/support/chain/escrow-chain';

/** mulberry32: small, seedable, good enough to pick actions. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}

export type Random = ReturnType<typeof prng>;

export type ModelStatus = 'open' | 'proposed' | 'settled' | 'refunding' | 'closed';

export interface ModelSetup {
  seed: number;
  kind: DareKind;
  /** payers[0] creates the dare. */
  payers: KeyPairSigner[];
  entrants: KeyPairSigner[];
  /** Sends gifts to the vault and the refunds, which anyone may. */
  stranger: KeyPairSigner;
  /** Everyone whose lamports must all be accounted for at the end, the platform among them. */
  actors: KeyPairSigner[];
  /** What else to check of the vault while it is open (v2: its proposal). */
  checkVault?: (context: string) => Promise<void>;
}

interface ModelDare {
  vault: Address;
  deadline: bigint;
  refundAfter: bigint;
  stake: bigint;
}

export class DareModel<D extends ModelDare = ModelDare> {
  status: ModelStatus = 'open';
  /** What each unrefunded receipt holds. */
  readonly receipts: Map<Address, bigint>;
  readonly entered = new Set<Address>();
  readonly deposited: Map<Address, bigint>;
  readonly refunded = new Map<Address, bigint>();
  /** Gifts in the vault that go to whoever it pays next. */
  stray = 0n;
  /** Gifts that arrived after the payout or the last refund: they go to the vault's rent payer. */
  strayToRentPayer = 0n;
  paidToWinners = 0n;
  readonly trace: string[] = [];
  /** The first word of every step that succeeded. */
  readonly succeeded = new Set<string>();

  private constructor(
    readonly chain: EscrowChain,
    readonly setup: ModelSetup,
    readonly dare: D,
    private readonly before: { balances: Map<Address, bigint>; fees: Map<Address, bigint> },
    private readonly records: { receipts: Address[]; entries: Address[] },
  ) {
    this.receipts = new Map([[setup.payers[0]!.address, dare.stake]]);
    this.deposited = new Map(this.receipts);
  }

  /** Notes every actor's lamports and fees so far, then has `create` make the dare. */
  static async start<D extends ModelDare>(
    chain: EscrowChain,
    setup: ModelSetup,
    create: () => Promise<D>,
  ): Promise<DareModel<D>> {
    const balances = new Map<Address, bigint>();
    for (const actor of setup.actors) balances.set(actor.address, await chain.balance(actor.address));
    const fees = new Map(setup.actors.map((a) => [a.address, chain.feesPaidBy(a.address)]));
    const dare = await create();
    const receipts = [];
    for (const p of setup.payers) receipts.push(await chain.receiptAddress(dare.vault, p.address));
    const entries = [];
    for (const e of setup.entrants) entries.push(await chain.entryAddress(dare.vault, e.address));
    return new DareModel(chain, setup, dare, { balances, fees }, { receipts, entries });
  }

  get closed(): boolean {
    return this.status === 'closed';
  }

  now(): Promise<bigint> {
    return this.chain.now();
  }

  private payerIndex(payer: Address): number {
    return this.setup.payers.findIndex((p) => p.address === payer);
  }

  private entrantIndex(entrant: Address): number {
    return this.setup.entrants.findIndex((e) => e.address === entrant);
  }

  /** The chain agrees with the model: the vault's status, every receipt and entry, its lamports. */
  async check(label: string): Promise<void> {
    const { chain, dare } = this;
    const context = `seed ${this.setup.seed}, after ${this.trace.join(' → ')} (${label})`;
    const vault = await chain.vault(dare.vault);
    if (this.closed) {
      expect(await chain.data(dare.vault), context).toBeNull();
      return;
    }
    expect(vault, context).not.toBeNull();
    expect(vault!.status, context).toBe(this.status);
    await this.setup.checkVault?.(context);
    for (const [i, p] of this.setup.payers.entries()) {
      const receipt = await chain.receipt(this.records.receipts[i]!);
      expect(receipt?.amount ?? null, context).toBe(this.receipts.get(p.address) ?? null);
    }
    for (const [i, e] of this.setup.entrants.entries())
      expect((await chain.entry(this.records.entries[i]!)) !== null, context).toBe(
        this.entered.has(e.address),
      );
    const sum = [...this.receipts.values()].reduce((a, b) => a + b, 0n);
    expect(vault!.receiptCount, context).toBe(this.receipts.size);
    expect(vault!.entryCount, context).toBe(this.entered.size);
    if (this.status === 'settled')
      expect(await chain.balance(dare.vault), context).toBe(vault!.rent + this.stray);
    else {
      // The receipts and the balance agree: the vault holds its rent, every receipt, and gifts.
      expect(vault!.total, context).toBe(sum);
      expect(await chain.balance(dare.vault), context).toBe(vault!.rent + sum + this.stray);
    }
  }

  /** Sends one instruction and asserts whether it succeeded; returns whether it did. */
  async attempt(
    label: string,
    instruction: Instruction | Promise<Instruction>,
    expected: boolean,
    feePayer?: KeyPairSigner,
  ): Promise<boolean> {
    this.trace.push(label);
    const result = await this.chain.send([await instruction], feePayer);
    const message = `seed ${this.setup.seed}: ${this.trace.join(' → ')}: ${result.ok ? 'succeeded' : result.error}`;
    expect(result.ok, message).toBe(expected);
    if (result.ok) this.succeeded.add(label.split(' ')[0]!);
    return result.ok;
  }

  private async open(): Promise<boolean> {
    return this.status === 'open' && (await this.now()) < this.dare.deadline;
  }

  async deposit(payer: KeyPairSigner, amount: bigint): Promise<void> {
    const ok = await this.attempt(
      `deposit ${this.payerIndex(payer.address)} ${amount}`,
      this.chain.depositInstruction(this.dare.vault, payer, amount),
      (await this.open()) && amount >= MIN_DEPOSIT_LAMPORTS,
    );
    if (!ok) return;
    this.receipts.set(payer.address, (this.receipts.get(payer.address) ?? 0n) + amount);
    this.deposited.set(payer.address, (this.deposited.get(payer.address) ?? 0n) + amount);
  }

  /** Up to `count` steps drawn from `steps` by `random`, the model checked after each, until the vault closes. */
  async runSteps(random: Random, count: number, steps: ((step: number) => Promise<void>)[]): Promise<void> {
    await this.check('created');
    for (let step = 0; step < count && !this.closed; step++) {
      await steps[random.int(steps.length)]!(step);
      await this.check(`step ${step}`);
    }
  }

  /**
   * The random steps both versions take: a deposit by a random payer (one in ten under the
   * minimum); three times in ten a cancel, else a close; a stranger's refund of a random receipt;
   * a random entry's or receipt's close; a stranger's gift of up to 0.001 SOL.
   */
  stepsAtRandom(random: Random) {
    const { payers, entrants } = this.setup;
    const close = async () => {
      if (random.chance(0.5)) await this.closeEntry(random.pick(entrants).address);
      else await this.closeReceipt(random.pick(payers).address);
    };
    return {
      deposit: async () => {
        const payer = random.pick(payers);
        const amount = random.chance(0.1)
          ? MIN_DEPOSIT_LAMPORTS - 1n
          : MIN_DEPOSIT_LAMPORTS + BigInt(random.int(2_000_000_000));
        await this.deposit(payer, amount);
      },
      cancelOrClose: async () => {
        if (random.chance(0.3)) await this.cancel();
        else await close();
      },
      refund: () => this.refund(random.pick(payers).address),
      close,
      gift: () => this.gift(BigInt(1 + random.int(1_000_000))),
    };
  }

  /** A random entrant enters by `instruction` (each version its own way), paying the fee if `paysFee`. */
  async enterAtRandom(
    random: Random,
    instruction: (entrant: KeyPairSigner) => Promise<Instruction>,
    { paysFee }: { paysFee: boolean },
  ): Promise<void> {
    const entrant = random.pick(this.setup.entrants);
    const ok = await this.attempt(
      `enter ${this.entrantIndex(entrant.address)}`,
      instruction(entrant),
      (await this.open()) && !this.entered.has(entrant.address),
      paysFee ? entrant : undefined,
    );
    if (ok) this.entered.add(entrant.address);
  }

  /** Entrants to name: one for a community dare, two (maybe the same twice) for a major one. */
  winnersAtRandom(random: Random): Address[] {
    const { entrants, kind } = this.setup;
    return (kind === 'major' ? [random.pick(entrants), random.pick(entrants)] : [random.pick(entrants)]).map(
      (w) => w.address,
    );
  }

  /** How `winners` are labelled in the trace: their entrant numbers. */
  winnersLabel(winners: Address[]): string {
    return winners.map((w) => this.entrantIndex(w)).join('+');
  }

  /**
   * `instruction` pays `winners` (a settle, an execute) when `expected`: they gain everything above
   * the vault's rent, a major dare's second winner 30% of it rounded down.
   */
  async payout(
    label: string,
    instruction: Instruction | Promise<Instruction>,
    expected: boolean,
    winners: Address[],
    feePayer?: KeyPairSigner,
  ): Promise<void> {
    const { chain, dare } = this;
    const before: bigint[] = [];
    for (const w of winners) before.push(await chain.balance(w));
    const pot = (await chain.balance(dare.vault)) - ((await chain.vault(dare.vault))?.rent ?? 0n);
    if (!(await this.attempt(label, instruction, expected, feePayer))) return;
    this.status = 'settled';
    this.stray = 0n;
    this.paidToWinners = pot;
    const same = winners[0] === winners[1];
    let gained = 0n;
    for (const [i, w] of (same ? winners.slice(0, 1) : winners).entries())
      gained += (await chain.balance(w)) - before[i]!;
    expect(gained).toBe(pot);
    if (this.setup.kind === 'major' && !same)
      expect((await chain.balance(winners[1]!)) - before[1]!).toBe((pot * 30n) / 100n);
  }

  async cancel(): Promise<void> {
    if (await this.attempt('cancel', this.chain.cancelInstruction(this.dare.vault), this.status === 'open'))
      this.status = 'refunding';
  }

  async refund(payer: Address): Promise<void> {
    const amount = this.receipts.get(payer);
    const due =
      this.status === 'refunding' || (this.status === 'open' && (await this.now()) >= this.dare.refundAfter);
    const before = await this.chain.balance(payer);
    const ok = await this.attempt(
      `refund ${this.payerIndex(payer)}`,
      this.chain.refundInstruction(this.dare.vault, payer),
      amount !== undefined && due,
      this.setup.stranger,
    );
    if (!ok) return;
    this.status = 'refunding';
    this.receipts.delete(payer);
    let paid = amount!;
    if (this.receipts.size === 0) {
      paid += this.stray;
      this.stray = 0n;
    }
    this.refunded.set(payer, (this.refunded.get(payer) ?? 0n) + paid);
    expect(await this.chain.balance(payer)).toBe(before + paid);
    if (this.receipts.size === 0 && this.entered.size === 0) this.status = 'closed';
  }

  async closeEntry(entrant: Address): Promise<void> {
    const ok = await this.attempt(
      `close-entry ${this.entrantIndex(entrant)}`,
      this.chain.closeEntryInstruction(this.dare.vault, entrant),
      this.entered.has(entrant) && (this.status === 'settled' || this.status === 'refunding'),
    );
    if (!ok) return;
    this.entered.delete(entrant);
    this.closedIfEmpty();
  }

  async closeReceipt(payer: Address): Promise<void> {
    const ok = await this.attempt(
      `close-receipt ${this.payerIndex(payer)}`,
      this.chain.closeReceiptInstruction(this.dare.vault, payer),
      this.receipts.has(payer) && this.status === 'settled',
    );
    if (!ok) return;
    this.receipts.delete(payer);
    this.closedIfEmpty();
  }

  private closedIfEmpty() {
    if (this.receipts.size > 0 || this.entered.size > 0) return;
    this.strayToRentPayer += this.stray;
    this.stray = 0n;
    this.status = 'closed';
  }

  async gift(amount: bigint): Promise<void> {
    this.trace.push(`gift ${amount}`);
    await this.chain.gift(this.setup.stranger, this.dare.vault, amount);
    this.stray += amount;
  }

  async passTime(seconds: bigint): Promise<void> {
    this.trace.push(`+${seconds}s`);
    await this.chain.tick(seconds);
  }

  /**
   * Ends the dare from an open or an ended vault (a standing proposal is the test's to execute
   * first): nothing may be left behind, and every lamport is with a winner or its payer; the
   * platform kept only what followed a payout; entrants kept exactly what they won.
   */
  async finish(): Promise<'settled' | 'refunded'> {
    const { chain, setup } = this;
    if (this.status === 'open') await this.cancel();
    for (const entrant of [...this.entered]) await this.closeEntry(entrant);
    for (const payer of [...this.receipts.keys()]) {
      if (this.status === 'settled') await this.closeReceipt(payer);
      else await this.refund(payer);
    }
    await this.check('finished');
    expect(this.closed).toBe(true);
    for (const address of [...this.records.receipts, ...this.records.entries])
      expect(await chain.data(address)).toBeNull();

    /** What `a` gained, its fees aside. */
    const gained = async (a: KeyPairSigner) =>
      (await chain.balance(a.address)) -
      this.before.balances.get(a.address)! +
      chain.feesPaidBy(a.address) -
      this.before.fees.get(a.address)!;
    let sum = 0n;
    for (const a of setup.actors) sum += await gained(a);
    expect(sum).toBe(0n);
    expect(await gained(chain.platform)).toBe(this.strayToRentPayer);
    for (const p of setup.payers)
      expect(await gained(p)).toBe(
        (this.refunded.get(p.address) ?? 0n) - (this.deposited.get(p.address) ?? 0n),
      );
    let winnings = 0n;
    for (const e of setup.entrants) winnings += await gained(e);
    expect(winnings).toBe(this.paidToWinners);
    const gifts = await gained(setup.stranger);
    const refunds = [...this.refunded.values()].reduce((a, b) => a + b, 0n);
    const deposits = [...this.deposited.values()].reduce((a, b) => a + b, 0n);
    expect(winnings + refunds + this.strayToRentPayer).toBe(deposits - gifts);
    return this.paidToWinners > 0n ? 'settled' : 'refunded';
  }
}
