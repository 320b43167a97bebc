import type { Category, DareStatus, Difficulty } from '../../../contract/limits';

/**
 * The fields of a dare these pages show (spec section 3 'dare'). The dares issue replaces this
 * with the contract's response type.
 */
export interface DareView {
  id: number;
  title: string;
  description: string;
  /** SOL, decimal strings. */
  stakeAmount: string;
  totalPool: string | null;
  difficulty: Difficulty;
  category: Category;
  status: DareStatus;
  deadline: string | null;
  submissionCount: number;
}
