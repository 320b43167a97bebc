import { type ClassValue, clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';
import { isSolAmount, normalizeSol } from '#contract/money';

export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}

/** 'Abc…xyz' for long wallet addresses. */
export function shortAddress(address: string, chars = 4): string {
  return address.length <= chars * 2 + 1 ? address : `${address.slice(0, chars)}…${address.slice(-chars)}`;
}

/** '1.500000000' -> '1.5 SOL'. Anything that is not a plain SOL decimal is shown as given. */
export function formatSol(amount: string | number): string {
  const text = String(amount).trim();
  return `${isSolAmount(text) ? normalizeSol(text) : text} SOL`;
}

const englishPlural = new Intl.PluralRules('en');

/** '1 win', '3 wins', '0 votes': the count with its noun in the right number. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${englishPlural.select(count) === 'one' ? singular : plural}`;
}
