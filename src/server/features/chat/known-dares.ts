import { type InstanceBus, WRITES_CHANNEL } from '#server/instance-bus';

/** Past this many remembered ids the memory starts over: ids an attacker makes up cannot grow it. */
const MAX_ENTRIES = 10_000;

/**
 * Whether a dare exists, as a chat join asks it: the answer is remembered until a write happens on
 * any instance (a dare created or deleted is one; the bus's "a write happened" news reaches every
 * instance), so a flood of joins costs one database lookup per dare and write, not one per join.
 * Lookups for one id that miss together share one query. While the bus's listener is down, news
 * could be missed: nothing is answered from memory until it is back, which forgets everything.
 */
export function createKnownDares(bus: InstanceBus, lookup: (dareId: number) => Promise<boolean>) {
  const known = new Map<number, boolean>();
  const inFlight = new Map<number, Promise<boolean>>();
  let generation = 0;

  function forget() {
    generation++;
    known.clear();
    inFlight.clear();
  }
  bus.subscribe(WRITES_CHANNEL, forget);
  bus.onResumed(forget);

  return {
    exists(dareId: number): Promise<boolean> {
      const listening = bus.isListening();
      const remembered = listening ? known.get(dareId) : undefined;
      if (remembered !== undefined) return Promise.resolve(remembered);
      const pending = inFlight.get(dareId);
      if (pending) return pending;
      const started = generation;
      const looked = lookup(dareId).then((found) => {
        // A write while the query ran may have changed the answer: give it, keep it not.
        if (started === generation && bus.isListening()) {
          if (known.size >= MAX_ENTRIES) known.clear();
          known.set(dareId, found);
        }
        return found;
      });
      if (listening) {
        inFlight.set(dareId, looked);
        const done = () => {
          if (inFlight.get(dareId) === looked) inFlight.delete(dareId);
        };
        looked.then(done, done);
      }
      return looked;
    },
  };
}

export type KnownDares = ReturnType<typeof createKnownDares>;
