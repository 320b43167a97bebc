import type { DareStatus } from '../../../contract/limits';

/** Spec section 3 'Major dare'. GET /api/major-dare starts as `{ isActive: false }`. */
export type MajorDareView =
  | { isActive: false }
  | {
      isActive: true;
      id: number;
      title: string;
      description: string;
      /** SOL, decimal string. */
      totalPool: string;
      deadline: string | null;
      status: DareStatus;
      participantCount: number;
      submissionCount: number;
    };
