import { formatSol, shortAddress } from '#web/lib/utils';
import { useDareBackers } from '../api/dare-backers';

/**
 * Who backed the pool (decision 066): a user by name, a wallet with no account (a blink deposit)
 * by its short address. Nothing is shown until someone has backed the dare.
 */
export function DareBackers({ dareId }: { dareId: number }) {
  const { data: backers } = useDareBackers(dareId);
  if (!backers?.length) return null;
  return (
    <section aria-labelledby="dare-backers" className="space-y-2">
      <h2 id="dare-backers" className="text-xl font-semibold">
        Backers
      </h2>
      <ul className="divide-y rounded-md border text-sm">
        {backers.map((backer) => (
          <li key={backer.walletAddress} className="flex items-center justify-between gap-3 px-3 py-2">
            {backer.username ? (
              <span className="truncate font-medium">{backer.username}</span>
            ) : (
              <span className="truncate font-mono" title={backer.walletAddress}>
                {shortAddress(backer.walletAddress)}
              </span>
            )}
            <span className="shrink-0 tabular-nums">{formatSol(backer.amount)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
