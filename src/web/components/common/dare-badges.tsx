import type { Dare } from '#contract/dares';
import { Badge } from '#web/components/ui/badge';

const VARIANT = { active: 'success', completed: 'secondary', cancelled: 'destructive' } as const;

/** A dare's status: active green, completed grey, cancelled red. */
export function DareStatusBadge({ status, className }: { status: Dare['status']; className?: string }) {
  return (
    <Badge variant={VARIANT[status]} className={className}>
      {status}
    </Badge>
  );
}

/** Each level its own colour, from calm to alarming, so the levels differ at a glance. */
const DIFFICULTY_CLASS: Record<Dare['difficulty'], string> = {
  easy: 'border-transparent bg-success/20 text-success',
  medium: 'border-transparent bg-amber-400/20 text-amber-300',
  hard: 'border-transparent bg-orange-500/25 text-orange-300',
  extreme: 'border-transparent bg-destructive text-destructive-foreground',
};

/** The badge row of a dare's card and page: difficulty, status, category. */
export function DareBadges({
  dare,
  className,
}: {
  dare: Pick<Dare, 'difficulty' | 'status' | 'category'>;
  className?: string;
}) {
  return (
    <div className={className}>
      <Badge className={`uppercase ${DIFFICULTY_CLASS[dare.difficulty]}`} data-difficulty={dare.difficulty}>
        {dare.difficulty}
      </Badge>
      <DareStatusBadge status={dare.status} className="uppercase" />
      <Badge variant="outline" className="uppercase">
        {dare.category}
      </Badge>
    </div>
  );
}
