/**
 * The linker on objects clang-16 built from fixtures/*.c (committed, so these tests need no
 * compiler; regenerate with `clang-16 -target bpf -mcpu=v2 -O2 -fPIC -ffreestanding -fno-builtin
 * -c X.c -o X.o` in fixtures/).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  appendTransactionMessageInstruction,
  createTransactionMessage,
  generateKeyPairSigner,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import { describe, expect, it } from 'vitest';
import { deployProgram, liteSvmDeployTarget } from '#server/chain/escrow-program/deploy';
import { LinkError, linkSbf, R_BPF_64_32, R_BPF_64_RELATIVE } from './link';
import { syscallHash } from './murmur3';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(path.join(import.meta.dirname, 'fixtures', name)));

interface Section {
  name: string;
  type: number;
  flags: bigint;
  addr: number;
  offset: number;
  size: number;
}

/** A reader of our own output, independent of the linker's code. */
function parse(elf: Uint8Array) {
  const view = new DataView(elf.buffer, elf.byteOffset, elf.byteLength);
  const shoff = Number(view.getBigUint64(40, true));
  const shnum = view.getUint16(60, true);
  const shstrndx = view.getUint16(62, true);
  const raw = Array.from({ length: shnum }, (_, i) => {
    const at = shoff + i * 64;
    return {
      nameOffset: view.getUint32(at, true),
      type: view.getUint32(at + 4, true),
      flags: view.getBigUint64(at + 8, true),
      addr: Number(view.getBigUint64(at + 16, true)),
      offset: Number(view.getBigUint64(at + 24, true)),
      size: Number(view.getBigUint64(at + 32, true)),
    };
  });
  const str = (base: number, at: number) => {
    let end = base + at;
    while (elf[end] !== 0) end++;
    return new TextDecoder().decode(elf.subarray(base + at, end));
  };
  const sections: Section[] = raw.map((s) => ({ ...s, name: str(raw[shstrndx]!.offset, s.nameOffset) }));
  const byName = (name: string) => sections.find((s) => s.name === name)!;
  const dynamic = new Map<number, number>();
  const dyn = byName('.dynamic');
  for (let at = dyn.offset; at < dyn.offset + dyn.size; at += 16) {
    const tag = Number(view.getBigUint64(at, true));
    if (tag === 0) break;
    dynamic.set(tag, Number(view.getBigUint64(at + 8, true)));
  }
  const dynsym = byName('.dynsym');
  const dynstr = byName('.dynstr');
  const symbolNames = [];
  for (let at = dynsym.offset; at < dynsym.offset + dynsym.size; at += 24) {
    symbolNames.push(str(dynstr.offset, view.getUint32(at, true)));
  }
  const relocations = [];
  const relAt = dynamic.get(17) ?? 0;
  for (let at = relAt; at < relAt + (dynamic.get(18) ?? 0); at += 16) {
    const info = view.getBigUint64(at + 8, true);
    relocations.push({
      offset: Number(view.getBigUint64(at, true)),
      type: Number(info & 0xffffffffn),
      symbol: symbolNames[Number(info >> 32n)]!,
    });
  }
  return {
    view,
    type: view.getUint16(16, true),
    machine: view.getUint16(18, true),
    flags: view.getUint32(48, true),
    entry: Number(view.getBigUint64(24, true)),
    sections,
    byName,
    dynamic,
    symbolNames,
    relocations,
  };
}

describe('murmur3 syscall keys', () => {
  it('match the keys the runtime registers', () => {
    expect(syscallHash('sol_log_')).toBe(0x207559bd);
    expect(syscallHash('abort')).toBe(0xb6fc1a11);
    expect(syscallHash('sol_invoke_signed_c')).toBe(0xa22b9c85);
  });
});

describe('linkSbf', () => {
  const elf = linkSbf(fixture('ok.o'));
  const out = parse(elf);

  it('writes an SBPFv0 shared object with one .text at its own file offset', () => {
    expect(Array.from(elf.subarray(0, 7))).toEqual([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]);
    expect(out.type).toBe(3);
    expect(out.machine).toBe(247);
    expect(out.flags).toBe(0);
    const text = out.byName('.text');
    expect(out.sections.filter((s) => s.name === '.text')).toHaveLength(1);
    expect(text.addr).toBe(text.offset);
    expect(out.entry).toBeGreaterThanOrEqual(text.offset);
    expect(out.entry).toBeLessThan(text.offset + text.size);
    expect(out.sections.some((s) => (s.flags & 1n) !== 0n)).toBe(false);
    // File order: each section starts after the previous one ends.
    const placed = out.sections.filter((s) => s.size > 0);
    for (let i = 1; i < placed.length; i++) {
      expect(placed[i]!.offset).toBeGreaterThanOrEqual(placed[i - 1]!.offset + placed[i - 1]!.size);
    }
  });

  it('merges every .rodata* input into the one .rodata the loader maps', () => {
    const rodata = out.byName('.rodata');
    const text = new TextDecoder().decode(elf.subarray(rodata.offset, rodata.offset + rodata.size));
    expect(text).toContain('hello from rodata');
    expect(text).toContain('a string literal');
    expect(out.sections.some((s) => s.name.startsWith('.rodata.'))).toBe(false);
  });

  it('points the dynamic table at .rel.dyn, .dynsym and .dynstr', () => {
    expect(out.dynamic.get(17)).toBe(out.byName('.rel.dyn').offset); // DT_REL
    expect(out.dynamic.get(18)).toBe(out.byName('.rel.dyn').size); // DT_RELSZ
    expect(out.dynamic.get(19)).toBe(16); // DT_RELENT
    expect(out.dynamic.get(6)).toBe(out.byName('.dynsym').addr); // DT_SYMTAB
    expect(out.dynamic.get(5)).toBe(out.byName('.dynstr').addr); // DT_STRTAB
    expect(out.symbolNames).toEqual(['', 'sol_log_', 'sol_log_64_']);
  });

  it('relocates lddw to .rodata addresses, syscalls by name, and local calls PC-relative', () => {
    const rodata = out.byName('.rodata');
    const relative = out.relocations.filter((r) => r.type === R_BPF_64_RELATIVE);
    const syscalls = out.relocations.filter((r) => r.type === R_BPF_64_32);
    expect(relative).toHaveLength(2);
    for (const r of relative) {
      expect(elf[r.offset]).toBe(0x18); // lddw
      const address = out.view.getUint32(r.offset + 4, true);
      expect(address).toBeGreaterThanOrEqual(rodata.offset);
      expect(address).toBeLessThan(rodata.offset + rodata.size);
      expect(out.view.getUint32(r.offset + 12, true)).toBe(0);
    }
    expect(syscalls.map((r) => r.symbol)).toEqual(['sol_log_', 'sol_log_', 'sol_log_64_']);
    for (const r of syscalls) {
      expect(elf[r.offset]).toBe(0x85);
      expect(out.view.getInt32(r.offset + 4, true)).toBe(-1);
    }
    // The call of triple(): no dynamic relocation, an immediate that lands inside .text.
    const text = out.byName('.text');
    const relocated = new Set(out.relocations.map((r) => r.offset));
    const localCalls = [];
    for (let at = text.offset; at < text.offset + text.size; at += 8) {
      if (elf[at] === 0x85 && !relocated.has(at)) localCalls.push(at);
    }
    expect(localCalls).toHaveLength(1);
    const target = (localCalls[0]! - text.offset) / 8 + 1 + out.view.getInt32(localCalls[0]! + 4, true);
    expect(target).toBeGreaterThanOrEqual(0);
    expect(target).toBeLessThan(text.size / 8);
  });

  it('is deterministic', () => {
    expect(Buffer.from(linkSbf(fixture('ok.o'))).equals(Buffer.from(elf))).toBe(true);
  });

  it('refuses writable sections and unknown syscalls', () => {
    expect(() => linkSbf(fixture('writable.o'))).toThrow(/writable section \.data/);
    expect(() => linkSbf(fixture('bss.o'))).toThrow(/writable section \.bss/);
    expect(() => linkSbf(fixture('unknown-syscall.o'))).toThrow(/unknown syscall sol_take_everything/);
    expect(() => linkSbf(elf)).toThrow(LinkError); // already linked: not ET_REL
    expect(() => linkSbf(new Uint8Array(16))).toThrow(/not an ELF/);
  });

  it('produces a program the upgradeable loader accepts and the runtime runs', async () => {
    const svm = new LiteSVM();
    const payer = await generateKeyPairSigner();
    svm.airdrop(payer.address, lamports(10_000_000_000n));
    const program = await generateKeyPairSigner();
    await deployProgram({ target: liteSvmDeployTarget(svm), payer, program, bytes: elf });
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: svm.latestBlockhash(), lastValidBlockHeight: 0n },
          m,
        ),
      (m) =>
        appendTransactionMessageInstruction(
          { programAddress: program.address, accounts: [], data: new Uint8Array() },
          m,
        ),
    );
    const result = svm.sendTransaction(await signTransactionMessageWithSigners(message));
    if (result instanceof FailedTransactionMetadata) throw new Error(result.meta().logs().join('\n'));
    const logs = result.logs();
    expect(logs).toContain('Program log: hello from rodata');
    expect(logs).toContain('Program log: a string literal');
    expect(logs).toContain('Program log: 0x0, 0x0, 0x0, 0x0, 0x0');
  });
});
