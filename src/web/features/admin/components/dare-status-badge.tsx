import type { Dare } from '../../../../contract/dares';
import { Badge } from '../../../components/ui/badge';

const VARIANT = { active: 'success', completed: 'secondary', cancelled: 'destructive' } as const;

/** A dare's status as the admin lists show it: active green, completed grey, cancelled red. */
export function DareStatusBadge({ status }: { status: Dare['status'] }) {
  return <Badge variant={VARIANT[status]}>{status}</Badge>;
}
