import { MAJOR_DARE_SPLIT } from '#contract/limits';
import { useDare } from '#web/lib/dare';
import { AddToPoolDialog } from './add-to-pool-dialog';

/**
 * Add to Pool for a dare known only by its id: the Major Dare's page and Home's card (routes.tsx
 * places it), with the vote the backing brings said beside it (issue 37, item 1): only the Major
 * Dare's own backers vote on its community prize.
 */
export default function AddToPoolById({ dareId, closed }: { dareId: number; closed: boolean }) {
  const { data: dare } = useDare(dareId);
  if (!dare || closed) return null;
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
      <AddToPoolDialog dare={dare} />
      <span className="text-xs text-muted-foreground" data-testid="backing-votes">
        Backers vote for the community's {MAJOR_DARE_SPLIT.communityPercent}% prize
      </span>
    </span>
  );
}
