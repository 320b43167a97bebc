import type { Dare } from '../../../../contract/dares';
import { Badge } from '../../../components/ui/badge';

const VARIANT = { active: 'success', completed: 'secondary', cancelled: 'destructive' } as const;

/** A dare's status: active green, completed grey, cancelled red. */
export function DareStatusBadge({ status, className }: { status: Dare['status']; className?: string }) {
  return (
    <Badge variant={VARIANT[status]} className={className}>
      {status}
    </Badge>
  );
}

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
      <Badge className="uppercase">{dare.difficulty}</Badge>
      <DareStatusBadge status={dare.status} className="uppercase" />
      <Badge variant="outline" className="uppercase">
        {dare.category}
      </Badge>
    </div>
  );
}
