import { count } from 'drizzle-orm';
import type { Db } from './client';
import { createDare, createUser } from './factories';
import { users } from './schema';

export const DEMO_ADMIN = { username: 'admin', password: 'darepool-admin' } as const;
const DEMO_PASSWORD = 'darepool-demo';
const DAY = 24 * 3600 * 1000;

/**
 * Demo data for the embedded mode: a few users (one admin), dares in every status and category,
 * and an active Major Dare. Runs only on an empty database, so later starts keep what users did.
 */
export async function seedDemoData(db: Db, now: Date): Promise<{ seeded: boolean }> {
  const [{ value: userCount } = { value: 0 }] = await db.select({ value: count() }).from(users);
  if (userCount > 0) return { seeded: false };

  await db.transaction(async (tx) => {
    const admin = await createUser(tx, { ...DEMO_ADMIN, isAdmin: true, reputation: 50 });
    const alice = await createUser(tx, { username: 'alice', password: DEMO_PASSWORD, reputation: 12 });
    const bob = await createUser(tx, { username: 'bob', password: DEMO_PASSWORD, reputation: 4 });
    const carol = await createUser(tx, { username: 'carol', password: DEMO_PASSWORD });
    const inDays = (days: number) => new Date(now.getTime() + days * DAY);

    const demoDares = [
      {
        creatorId: alice.id,
        title: 'Cold shower for 7 days',
        description: 'Take a fully cold shower every morning for a week. Film day 1 and day 7.',
        category: 'physical',
        difficulty: 'hard',
        stakeAmount: '0.5',
        deadline: inDays(10),
      },
      {
        creatorId: bob.id,
        title: 'Paint a mural in one afternoon',
        description: 'Paint a mural at least 2 metres wide in a single afternoon, time-lapse it.',
        category: 'creative',
        difficulty: 'medium',
        stakeAmount: '0.25',
        deadline: inDays(5),
      },
      {
        creatorId: carol.id,
        title: 'Compliment 20 strangers',
        description: 'Give a sincere compliment to 20 strangers in one day, with their consent to film.',
        category: 'social',
        difficulty: 'easy',
        stakeAmount: '0.1',
        deadline: inDays(3),
      },
      {
        creatorId: alice.id,
        title: 'Solve a Rubik’s cube blindfolded',
        description: 'Inspect, put on the blindfold and solve. One continuous take.',
        category: 'skill',
        difficulty: 'extreme',
        stakeAmount: '1',
        deadline: inDays(14),
      },
      {
        creatorId: bob.id,
        title: 'Sunrise summit hike',
        description: 'Reach a summit before sunrise and film the first light from the top.',
        category: 'adventure',
        difficulty: 'hard',
        stakeAmount: '0.3',
        deadline: inDays(-2),
        status: 'completed',
      },
      {
        creatorId: carol.id,
        title: 'Juggle five balls for a minute',
        description: 'Keep five balls in the air for sixty seconds without a drop.',
        category: 'skill',
        difficulty: 'hard',
        stakeAmount: '0.2',
        deadline: inDays(8),
        status: 'cancelled',
      },
    ] as const;
    for (const dare of demoDares) await createDare(tx, { ...dare, totalPool: dare.stakeAmount });

    await createDare(tx, {
      creatorId: admin.id,
      title: 'Major Dare of the Week: 100 push-ups in public',
      description: 'Do 100 push-ups in a public square in under ten minutes. Best video wins.',
      category: 'fitness',
      difficulty: 'medium',
      stakeAmount: '0.1',
      totalPool: '0.1',
      maxParticipants: 100,
      isMajor: true,
      deadline: inDays(6),
    });
  });
  return { seeded: true };
}
