/**
 * A linker for one clang `-target bpf` relocatable object (ET_REL) into the ELF the Solana
 * loader runs as SBPFv0 (ET_DYN). Upstream ld.lld cannot do it (see docs/program.md), and the
 * loader's rules are few (agave-xyz/sbpf `src/elf.rs`), so they are all here:
 *
 * - ELFCLASS64, little-endian, OSABI 0, e_machine EM_BPF, ET_DYN, e_flags 0 (SBPFv0).
 * - exactly one `.text` with sh_addr == sh_offset; read-only data only in a section named
 *   exactly `.rodata` (the loader maps no `.rodata.str1.1`), so every `.rodata*` input is merged
 *   into it; no writable section; sections in file order.
 * - `lddw` of an address: the absolute file address goes into the instruction and a
 *   R_BPF_64_RELATIVE (8) dynamic relocation makes the loader add the 0x1_0000_0000 region base.
 * - `call` of a function defined here: a PC-relative immediate (the loader treats any call whose
 *   imm is not -1 that way). `call` of an undefined symbol: a syscall, kept as imm -1 plus a
 *   R_BPF_64_32 (10) dynamic relocation naming a `.dynsym` entry; the loader replaces it with the
 *   murmur3 hash of the name. Only names of real syscalls are accepted.
 *
 * Output layout (every address equals its file offset):
 *   ELF header | 3 program headers | .text | .rodata | .dynamic | .dynsym | .dynstr | .rel.dyn |
 *   .shstrtab | section headers
 * The output depends only on the input bytes, so a rebuild is byte-identical.
 */
import { KNOWN_SYSCALLS } from './syscalls';

export class LinkError extends Error {
  override name = 'LinkError';
}

const EM_BPF = 247;
const ET_REL = 1;
const ET_DYN = 3;

const SHT_PROGBITS = 1;
const SHT_SYMTAB = 2;
const SHT_STRTAB = 3;
const SHT_RELA = 4;
const SHT_DYNAMIC = 6;
const SHT_NOBITS = 8;
const SHT_REL = 9;
const SHT_DYNSYM = 11;

const SHF_WRITE = 0x1n;
const SHF_ALLOC = 0x2n;
const SHF_EXECINSTR = 0x4n;

const SHN_UNDEF = 0;
const STT_SECTION = 3;
const STT_FUNC = 2;

const PT_LOAD = 1;
const PT_DYNAMIC = 2;
const PF_X = 1;
const PF_R = 4;

const DT_NULL = 0;
const DT_STRTAB = 5;
const DT_SYMTAB = 6;
const DT_REL = 17;
const DT_RELSZ = 18;
const DT_RELENT = 19;
const DT_STRSZ = 10;
const DT_SYMENT = 11;
const DT_TEXTREL = 22;
const DT_FLAGS = 30;
const DF_TEXTREL = 4;

export const R_BPF_64_64 = 1;
export const R_BPF_64_RELATIVE = 8;
export const R_BPF_64_32 = 10;

const OP_LDDW = 0x18;
const OP_CALL = 0x85;

const EHDR_SIZE = 64;
const PHDR_SIZE = 56;
const SHDR_SIZE = 64;
const SYM_SIZE = 24;
const REL_SIZE = 16;
const DYN_SIZE = 16;

interface InputSection {
  index: number;
  name: string;
  type: number;
  flags: bigint;
  offset: number;
  size: number;
  link: number;
  info: number;
  align: number;
}

interface InputSymbol {
  name: string;
  type: number;
  shndx: number;
  value: number;
}

export interface DynamicRelocation {
  offset: number;
  type: number;
  symbol: number;
}

function align(value: number, to: number): number {
  return to <= 1 ? value : Math.ceil(value / to) * to;
}

function cString(bytes: Uint8Array, at: number): string {
  let end = at;
  while (end < bytes.length && bytes[end] !== 0) end++;
  return new TextDecoder().decode(bytes.subarray(at, end));
}

function readSections(bytes: Uint8Array, view: DataView): InputSection[] {
  if (bytes.length < EHDR_SIZE || view.getUint32(0, false) !== 0x7f454c46)
    throw new LinkError('not an ELF file');
  if (bytes[4] !== 2 || bytes[5] !== 1) throw new LinkError('not a 64-bit little-endian ELF');
  if (view.getUint16(16, true) !== ET_REL) throw new LinkError('not a relocatable object (ET_REL)');
  if (view.getUint16(18, true) !== EM_BPF) throw new LinkError('not a BPF object (e_machine 247)');
  const shoff = Number(view.getBigUint64(40, true));
  const shnum = view.getUint16(60, true);
  const shstrndx = view.getUint16(62, true);
  const raw = [];
  for (let i = 0; i < shnum; i++) {
    const at = shoff + i * SHDR_SIZE;
    if (at + SHDR_SIZE > bytes.length) throw new LinkError('section header table out of bounds');
    raw.push({
      nameOffset: view.getUint32(at, true),
      type: view.getUint32(at + 4, true),
      flags: view.getBigUint64(at + 8, true),
      offset: Number(view.getBigUint64(at + 24, true)),
      size: Number(view.getBigUint64(at + 32, true)),
      link: view.getUint32(at + 40, true),
      info: view.getUint32(at + 44, true),
      align: Number(view.getBigUint64(at + 48, true)),
    });
  }
  const names = raw[shstrndx];
  if (!names) throw new LinkError('no section name table');
  return raw.map((section, index) => {
    if (section.type !== SHT_NOBITS && section.offset + section.size > bytes.length)
      throw new LinkError(`section ${index} out of bounds`);
    return { ...section, index, name: cString(bytes, names.offset + section.nameOffset) };
  });
}

function readSymbols(bytes: Uint8Array, view: DataView, sections: InputSection[]): InputSymbol[] {
  const symtab = sections.find((section) => section.type === SHT_SYMTAB);
  if (!symtab) throw new LinkError('no symbol table');
  const strtab = sections[symtab.link];
  if (!strtab) throw new LinkError('symbol table has no string table');
  const symbols: InputSymbol[] = [];
  for (let at = symtab.offset; at < symtab.offset + symtab.size; at += SYM_SIZE) {
    symbols.push({
      name: cString(bytes, strtab.offset + view.getUint32(at, true)),
      type: bytes[at + 4]! & 0xf,
      shndx: view.getUint16(at + 6, true),
      value: Number(view.getBigUint64(at + 8, true)),
    });
  }
  return symbols;
}

/** Links one BPF relocatable object into a Solana SBPFv0 program. Throws LinkError. */
export function linkSbf(object: Uint8Array, options: { entrypoint?: string } = {}): Uint8Array {
  const entryName = options.entrypoint ?? 'entrypoint';
  const input = new DataView(object.buffer, object.byteOffset, object.byteLength);
  const sections = readSections(object, input);
  const symbols = readSymbols(object, input, sections);

  // Classify the allocated sections: one .text, read-only data, and nothing writable.
  let text: InputSection | undefined;
  const rodata: InputSection[] = [];
  for (const section of sections) {
    if ((section.flags & SHF_ALLOC) === 0n) continue;
    if ((section.flags & SHF_WRITE) !== 0n || section.type === SHT_NOBITS) {
      if (section.size === 0) continue;
      throw new LinkError(
        `writable section ${section.name} is not supported: Solana programs have no writable globals`,
      );
    }
    if ((section.flags & SHF_EXECINSTR) !== 0n) {
      if (section.size === 0) continue;
      if (section.name !== '.text' || text)
        throw new LinkError(`code outside one .text section (${section.name}) is not supported`);
      text = section;
    } else if (section.name === '.rodata' || section.name.startsWith('.rodata.')) {
      if (section.type !== SHT_PROGBITS) throw new LinkError(`unexpected type of section ${section.name}`);
      rodata.push(section);
    } else {
      throw new LinkError(`section ${section.name} is not supported`);
    }
  }
  if (!text) throw new LinkError('no .text section');

  // Layout.
  const textOffset = align(EHDR_SIZE + 3 * PHDR_SIZE, 8);
  const codeEnd = textOffset + text.size;
  const rodataPlacement = new Map<number, number>();
  let cursor = codeEnd;
  let rodataStart = codeEnd;
  for (const [i, section] of rodata.entries()) {
    cursor = align(cursor, Math.max(1, section.align));
    if (i === 0) rodataStart = cursor;
    rodataPlacement.set(section.index, cursor);
    cursor += section.size;
  }
  const rodataEnd = cursor;
  const rodataAlign = Math.max(1, ...rodata.map((section) => section.align));
  const placeOf = (sectionIndex: number): number | undefined =>
    sectionIndex === text.index ? textOffset : rodataPlacement.get(sectionIndex);

  // Relocate .text.
  const code = object.slice(text.offset, text.offset + text.size);
  const codeView = new DataView(code.buffer);
  const relocations: DynamicRelocation[] = [];
  const syscallNames: string[] = [];
  for (const rel of sections) {
    if (rel.type === SHT_RELA) throw new LinkError(`RELA relocations (${rel.name}) are not supported`);
    if (rel.type !== SHT_REL) continue;
    const target = sections[rel.info];
    if (!target || (target.flags & SHF_ALLOC) === 0n) continue; // debug info: not loaded
    if (target !== text)
      throw new LinkError(`relocations in ${target.name} are not supported (no pointers in data)`);
    for (let at = rel.offset; at < rel.offset + rel.size; at += REL_SIZE) {
      const offset = Number(input.getBigUint64(at, true));
      const type = input.getUint32(at + 8, true);
      const symbol = symbols[input.getUint32(at + 12, true)];
      if (!symbol) throw new LinkError(`relocation at ${offset} names no symbol`);
      if (offset % 8 !== 0 || offset + 8 > code.length)
        throw new LinkError(`relocation at ${offset} out of .text`);
      const opcode = code[offset]!;
      if (type === R_BPF_64_64) {
        if (opcode !== OP_LDDW || offset + 16 > code.length)
          throw new LinkError(`R_BPF_64_64 at ${offset} is not on an lddw`);
        const base = placeOf(symbol.shndx);
        if (symbol.shndx === SHN_UNDEF || base === undefined)
          throw new LinkError(
            `lddw of ${symbol.name || 'a symbol'} outside .text and .rodata is not supported`,
          );
        const addend = codeView.getUint32(offset + 4, true);
        const address = base + (symbol.type === STT_SECTION ? 0 : symbol.value) + addend;
        codeView.setUint32(offset + 4, address, true);
        codeView.setUint32(offset + 12, 0, true);
        relocations.push({ offset: textOffset + offset, type: R_BPF_64_RELATIVE, symbol: 0 });
      } else if (type === R_BPF_64_32) {
        if (opcode !== OP_CALL) throw new LinkError(`R_BPF_64_32 at ${offset} is not on a call`);
        if (symbol.shndx === SHN_UNDEF) {
          if (!KNOWN_SYSCALLS.has(symbol.name))
            throw new LinkError(
              `unknown syscall ${symbol.name}: the loader would refuse it (Unresolved symbol)`,
            );
          let index = syscallNames.indexOf(symbol.name);
          if (index < 0) index = syscallNames.push(symbol.name) - 1;
          codeView.setInt32(offset + 4, -1, true);
          relocations.push({ offset: textOffset + offset, type: R_BPF_64_32, symbol: index + 1 });
        } else if (symbol.shndx === text.index && symbol.type === STT_FUNC) {
          const targetPc = symbol.value / 8;
          codeView.setInt32(offset + 4, targetPc - (offset / 8 + 1), true);
        } else {
          throw new LinkError(`call of ${symbol.name || 'a non-function'} is not supported`);
        }
      } else {
        throw new LinkError(`relocation type ${type} at ${offset} is not supported`);
      }
    }
  }
  relocations.sort((a, b) => a.offset - b.offset);

  const entry = symbols.find((symbol) => symbol.name === entryName && symbol.shndx === text.index);
  if (!entry) throw new LinkError(`no ${entryName} function in .text`);

  // Dynamic sections.
  const dynstrParts = [''];
  const dynsymNames = [0];
  let dynstrSize = 1;
  for (const name of syscallNames) {
    dynsymNames.push(dynstrSize);
    dynstrParts.push(name);
    dynstrSize += name.length + 1;
  }
  const dynstr = new TextEncoder().encode(`${dynstrParts.join('\0')}\0`);
  const dynamicEntries: Array<[number, number]> = [[DT_FLAGS, DF_TEXTREL]];
  const dynamicOffset = align(rodataEnd, 8);
  const dynamicCount = 10;
  const dynsymOffset = dynamicOffset + dynamicCount * DYN_SIZE;
  const dynsymSize = dynsymNames.length * SYM_SIZE;
  const dynstrOffset = dynsymOffset + dynsymSize;
  const relOffset = align(dynstrOffset + dynstr.length, 8);
  const relSize = relocations.length * REL_SIZE;
  if (relocations.length > 0) {
    dynamicEntries.push([DT_REL, relOffset], [DT_RELSZ, relSize], [DT_RELENT, REL_SIZE]);
  }
  dynamicEntries.push(
    [DT_SYMTAB, dynsymOffset],
    [DT_SYMENT, SYM_SIZE],
    [DT_STRTAB, dynstrOffset],
    [DT_STRSZ, dynstr.length],
    [DT_TEXTREL, 0],
  );
  while (dynamicEntries.length < dynamicCount) dynamicEntries.push([DT_NULL, 0]);

  const shstrNames = ['', '.text', '.rodata', '.dynamic', '.dynsym', '.dynstr', '.rel.dyn', '.shstrtab'];
  const shstr = new TextEncoder().encode(`${shstrNames.join('\0')}\0`);
  const shstrOffsets = shstrNames.map((_, i) => shstrNames.slice(0, i).reduce((n, s) => n + s.length + 1, 0));
  const shstrOffset = relOffset + relSize;
  const shOffset = align(shstrOffset + shstr.length, 8);
  const fileSize = shOffset + shstrNames.length * SHDR_SIZE;

  const out = new Uint8Array(fileSize);
  const view = new DataView(out.buffer);

  // ELF header.
  out.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0], 0);
  view.setUint16(16, ET_DYN, true);
  view.setUint16(18, EM_BPF, true);
  view.setUint32(20, 1, true);
  view.setBigUint64(24, BigInt(textOffset + entry.value), true);
  view.setBigUint64(32, BigInt(EHDR_SIZE), true);
  view.setBigUint64(40, BigInt(shOffset), true);
  view.setUint32(48, 0, true); // e_flags 0: SBPFv0
  view.setUint16(52, EHDR_SIZE, true);
  view.setUint16(54, PHDR_SIZE, true);
  view.setUint16(56, 3, true);
  view.setUint16(58, SHDR_SIZE, true);
  view.setUint16(60, shstrNames.length, true);
  view.setUint16(62, shstrNames.length - 1, true);

  const phdr = (i: number, type: number, flags: number, offset: number, size: number) => {
    const at = EHDR_SIZE + i * PHDR_SIZE;
    view.setUint32(at, type, true);
    view.setUint32(at + 4, flags, true);
    view.setBigUint64(at + 8, BigInt(offset), true);
    view.setBigUint64(at + 16, BigInt(offset), true);
    view.setBigUint64(at + 24, BigInt(offset), true);
    view.setBigUint64(at + 32, BigInt(size), true);
    view.setBigUint64(at + 40, BigInt(size), true);
    view.setBigUint64(at + 48, 8n, true);
  };
  phdr(0, PT_LOAD, PF_R | PF_X, textOffset, rodataEnd - textOffset);
  phdr(1, PT_LOAD, PF_R, dynamicOffset, relOffset + relSize - dynamicOffset);
  phdr(2, PT_DYNAMIC, PF_R, dynamicOffset, dynamicCount * DYN_SIZE);

  out.set(code, textOffset);
  for (const section of rodata) {
    out.set(
      object.subarray(section.offset, section.offset + section.size),
      rodataPlacement.get(section.index)!,
    );
  }
  for (const [i, [tag, value]] of dynamicEntries.entries()) {
    view.setBigUint64(dynamicOffset + i * DYN_SIZE, BigInt(tag), true);
    view.setBigUint64(dynamicOffset + i * DYN_SIZE + 8, BigInt(value), true);
  }
  for (const [i, nameOffset] of dynsymNames.entries()) {
    if (i === 0) continue;
    const at = dynsymOffset + i * SYM_SIZE;
    view.setUint32(at, nameOffset, true);
    out[at + 4] = 0x10; // STB_GLOBAL, STT_NOTYPE: an import
  }
  out.set(dynstr, dynstrOffset);
  for (const [i, rel] of relocations.entries()) {
    view.setBigUint64(relOffset + i * REL_SIZE, BigInt(rel.offset), true);
    view.setBigUint64(relOffset + i * REL_SIZE + 8, (BigInt(rel.symbol) << 32n) | BigInt(rel.type), true);
  }
  out.set(shstr, shstrOffset);

  const shdr = (
    i: number,
    fields: {
      type: number;
      flags: bigint;
      offset: number;
      size: number;
      addr: boolean;
      link?: number;
      info?: number;
      align: number;
      entsize?: number;
    },
  ) => {
    const at = shOffset + i * SHDR_SIZE;
    view.setUint32(at, shstrOffsets[i]!, true);
    view.setUint32(at + 4, fields.type, true);
    view.setBigUint64(at + 8, fields.flags, true);
    view.setBigUint64(at + 16, BigInt(fields.addr ? fields.offset : 0), true);
    view.setBigUint64(at + 24, BigInt(fields.offset), true);
    view.setBigUint64(at + 32, BigInt(fields.size), true);
    view.setUint32(at + 40, fields.link ?? 0, true);
    view.setUint32(at + 44, fields.info ?? 0, true);
    view.setBigUint64(at + 48, BigInt(fields.align), true);
    view.setBigUint64(at + 56, BigInt(fields.entsize ?? 0), true);
  };
  shdr(1, {
    type: SHT_PROGBITS,
    flags: SHF_ALLOC | SHF_EXECINSTR,
    offset: textOffset,
    size: text.size,
    addr: true,
    align: 8,
  });
  shdr(2, {
    type: SHT_PROGBITS,
    flags: SHF_ALLOC,
    offset: rodataStart,
    size: rodataEnd - rodataStart,
    addr: true,
    align: rodataAlign,
  });
  shdr(3, {
    type: SHT_DYNAMIC,
    flags: SHF_ALLOC,
    offset: dynamicOffset,
    size: dynamicCount * DYN_SIZE,
    addr: true,
    link: 5,
    align: 8,
    entsize: DYN_SIZE,
  });
  shdr(4, {
    type: SHT_DYNSYM,
    flags: SHF_ALLOC,
    offset: dynsymOffset,
    size: dynsymSize,
    addr: true,
    link: 5,
    info: 1,
    align: 8,
    entsize: SYM_SIZE,
  });
  shdr(5, {
    type: SHT_STRTAB,
    flags: SHF_ALLOC,
    offset: dynstrOffset,
    size: dynstr.length,
    addr: true,
    align: 1,
  });
  shdr(6, {
    type: SHT_REL,
    flags: SHF_ALLOC,
    offset: relOffset,
    size: relSize,
    addr: true,
    link: 4,
    align: 8,
    entsize: REL_SIZE,
  });
  shdr(7, { type: SHT_STRTAB, flags: 0n, offset: shstrOffset, size: shstr.length, addr: false, align: 1 });
  return out;
}
