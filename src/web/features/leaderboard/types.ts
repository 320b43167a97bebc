/** Spec section 3 'Leaderboard entry'. */
export interface LeaderboardEntry {
  id: number;
  username: string;
  dareWins: number;
  /** SOL, decimal string. */
  totalEarnings: string;
  walletAddress: string | null;
  reputation: number;
}
