import { lamportsToSol, solToLamports } from '#contract/money';
import { formatDayTime, fromNowLabel } from './dates';
import { formatSol } from './utils';

/** A named winner as the confirmation says it: who (a username, else a short address) and how much. */
export interface NamedWinner {
  name: string;
  /** SOL, decimal string. */
  amount: string;
}

/**
 * What naming winners really does on program v2 (issue 24): "Name walker1 the winner?" and
 * "0.35 SOL will be paid to their wallet on 28 Nov 14:05, 24 hours from now, unless the guardian
 * vetoes it." A Major Dare names two, each with its share; one person holding both shares is one
 * winner paid their sum.
 */
export function proposalSentence(
  winners: NamedWinner[],
  executesAt: string,
  options: { now?: Date; timeZone?: string } = {},
): { question: string; detail: string } {
  const when = `on ${formatDayTime(executesAt, options.timeZone)}, ${fromNowLabel(executesAt, options.now)}, unless the guardian vetoes it.`;
  const merged = mergeByName(winners);
  if (merged.length === 1) {
    const [only] = merged as [NamedWinner];
    return {
      question: `Name ${only.name} the winner?`,
      detail: `${formatSol(only.amount)} will be paid to their wallet ${when}`,
    };
  }
  const names = merged.map((winner) => winner.name);
  const paid = merged.map((winner, index) =>
    index === 0
      ? `${formatSol(winner.amount)} will be paid to ${winner.name}'s wallet`
      : `${formatSol(winner.amount)} to ${winner.name}'s`,
  );
  return {
    question: `Name ${joinAnd(names)} the winners?`,
    detail: `${joinAnd(paid)} ${when}`,
  };
}

function joinAnd(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function mergeByName(winners: NamedWinner[]): NamedWinner[] {
  const sums = new Map<string, bigint>();
  for (const winner of winners) {
    sums.set(winner.name, (sums.get(winner.name) ?? 0n) + solToLamports(winner.amount));
  }
  return [...sums].map(([name, lamports]) => ({ name, amount: lamportsToSol(lamports) }));
}
