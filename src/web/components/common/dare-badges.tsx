import { DARE_PHASE_WORDS, type DarePhase } from '#contract/dare-status';
import type { Dare } from '#contract/dares';
import { Badge } from '#web/components/ui/badge';

const VARIANT = {
  active: 'success',
  ended: 'secondary',
  completed: 'secondary',
  refunding: 'outline',
  refunded: 'outline',
  cancelled: 'destructive',
} as const;

/** A dare's status in the words every screen uses (#contract/dare-status): active green, cancelled red. */
export function DareStatusBadge({ phase, className }: { phase: DarePhase; className?: string }) {
  return (
    <Badge variant={VARIANT[phase]} className={className} data-phase={phase}>
      {DARE_PHASE_WORDS[phase]}
    </Badge>
  );
}

/** Whether the dare is shown to everyone, as the spec's isPublic says it. */
export function VisibilityBadge({ isPublic, className }: { isPublic: boolean; className?: string }) {
  return (
    <Badge variant="outline" className={className}>
      {isPublic ? 'Public' : 'Private'}
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

/** The badge row of a dare's card and page: difficulty, status, category, Public or Private. */
export function DareBadges({
  dare,
  className,
}: {
  dare: Pick<Dare, 'difficulty' | 'phase' | 'category' | 'isPublic'>;
  className?: string;
}) {
  return (
    <div className={className}>
      <Badge className={`uppercase ${DIFFICULTY_CLASS[dare.difficulty]}`} data-difficulty={dare.difficulty}>
        {dare.difficulty}
      </Badge>
      <DareStatusBadge phase={dare.phase} className="uppercase" />
      <Badge variant="outline" className="uppercase">
        {dare.category}
      </Badge>
      <VisibilityBadge isPublic={dare.isPublic} className="uppercase" />
    </div>
  );
}
