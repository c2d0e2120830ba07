// In-process EventBus with Kafka's semantics, for one process (`--target=all`, tests): per topic a
// partitioned log (key hash → partition) held in memory, per-group committed offsets, partitions
// shared among a group's members, per-key order, retries in place, dead letters to `<topic>.dlq`.
// Hand-written on purpose: Node's EventEmitter and the npm in-memory buses (mitt, emittery) have no
// consumer groups, offsets, retries or dead letters, so code tested on them would behave differently
// on Kafka; this adapter passes the same contract suite as the Kafka one (tests/contract).
import { pino } from 'pino';
import type { Logger } from 'pino';
import { deadLetterTopic } from '../ports/event-bus.ts';
import type { EventBus, OutgoingEvent, SubscribeOptions, Subscription } from '../ports/event-bus.ts';
import {
  createEnding,
  createSemaphore,
  deliver,
  normaliseSubscribeOptions,
  prepareOutgoing,
  withPublishSpan,
} from './event-bus-delivery.ts';
import type { Ending, NormalisedSubscribeOptions, Semaphore } from './event-bus-delivery.ts';

export interface MemoryEventBusOptions {
  logger?: Logger;
  /**
   * Partitions per topic: the most events of one group handled at once per topic, whatever a
   * subscription's `concurrency` (a partition's events are handled one after another). Default 64,
   * the highest concurrency any of our settings allows (PROCESSING_CONCURRENCY's max): with 8, a
   * PROCESSING_CONCURRENCY of 16 still analysed 8 files at once, and the search consumer's
   * write batches held at most 8 entities. Idle partitions cost one waiting promise each.
   */
  partitions?: number;
  /**
   * Retention: events kept per partition beyond what every group has committed (default 800,000
   * per topic spread over its partitions: 12,500 each at 64). Like Kafka's retention, the oldest
   * are dropped past it (logged), so a topic nobody consumes cannot grow without bound.
   */
  maxRetainedPerPartition?: number;
}

interface Entry {
  key: string;
  value: Uint8Array;
  headers: Record<string, string>;
}

interface PartitionLog {
  /** Offset of entries[0]; entries below it were trimmed. */
  base: number;
  entries: Entry[];
  /** Workers waiting for an append. */
  waiters: Set<() => void>;
}

interface GroupPartition {
  committed: number;
  owner: Member | null;
  /** The partition's workers run one after another (a handover waits for the previous owner). */
  chain: Promise<void>;
  /** Interrupts the current worker's waits (not its running handler) on handover. */
  handover: AbortController;
  /** Attempt count carried over when a worker stops mid-retry. */
  pending: { offset: number; nextAttempt: number } | null;
}

interface Group {
  name: string;
  members: Member[];
  /** topic → state per partition. */
  topics: Map<string, GroupPartition[]>;
}

interface Member {
  group: Group;
  options: NormalisedSubscribeOptions;
  permits: Semaphore;
  stop: AbortController;
  runs: Set<Promise<void>>;
  ending: Ending;
  /** Set when a worker failed: a close() racing the failure must not report a clean end. */
  failure?: unknown;
}

/** Events a topic keeps beyond what every group has committed, unless maxRetainedPerPartition says otherwise. */
const RETAINED_PER_TOPIC = 800_000;

export function createMemoryEventBus(options: MemoryEventBusOptions = {}): EventBus {
  const partitionCount = options.partitions ?? 64;
  if (!Number.isInteger(partitionCount) || partitionCount < 1 || partitionCount > 1024) {
    throw new TypeError(`memory event bus: partitions must be an integer in 1..1024 (got ${partitionCount})`);
  }
  const maxRetained = options.maxRetainedPerPartition ?? Math.ceil(RETAINED_PER_TOPIC / partitionCount);
  if (!Number.isInteger(maxRetained) || maxRetained < 1) {
    throw new TypeError(
      `memory event bus: maxRetainedPerPartition must be an integer >= 1 (got ${maxRetained})`,
    );
  }
  const logger = (options.logger ?? pino({ level: 'silent' })).child({
    component: 'event-bus',
    bus: 'memory',
  });
  const topics = new Map<string, PartitionLog[]>();
  const groups = new Map<string, Group>();
  const members = new Set<Member>();
  let closed = false;

  function topicLog(topic: string): PartitionLog[] {
    let log = topics.get(topic);
    if (!log) {
      log = Array.from({ length: partitionCount }, () => ({ base: 0, entries: [], waiters: new Set() }));
      topics.set(topic, log);
    }
    return log;
  }

  function append(topic: string, entry: Entry): void {
    const partitions = topicLog(topic);
    const log = partitions[partitionOf(entry.key, partitionCount)]!;
    log.entries.push(entry);
    for (const wake of log.waiters) wake();
    log.waiters.clear();
    trim(topic, partitions.indexOf(log));
  }

  /** Drop entries every group has committed, and the oldest past the retention limit. */
  function trim(topic: string, partition: number): void {
    const log = topicLog(topic)[partition]!;
    // With no group reading the topic yet, nothing is consumed: keep it all (up to retention).
    let floor = log.base;
    let readers = 0;
    for (const group of groups.values()) {
      const state = group.topics.get(topic)?.[partition];
      if (!state) continue;
      floor = readers++ === 0 ? state.committed : Math.min(floor, state.committed);
    }
    const overflow = log.entries.length - maxRetained;
    const overRetention = overflow > 0 && floor - log.base < overflow;
    if (overRetention) {
      logger.warn(
        { topic, partition, dropped: overflow - (floor - log.base) },
        'retention limit reached: dropping the oldest events some group has not handled yet',
      );
      floor = log.base + overflow;
    }
    const drop = floor - log.base;
    // Trim in chunks (or when everything is consumed) so a busy topic does not splice on every event.
    if (drop > 0 && (overRetention || drop >= 256 || drop === log.entries.length)) {
      log.entries.splice(0, drop);
      log.base = floor;
    }
  }

  function groupOf(name: string): Group {
    let group = groups.get(name);
    if (!group) {
      group = { name, members: [], topics: new Map() };
      groups.set(name, group);
    }
    return group;
  }

  /** Kafka-style rebalance: each topic's partitions are dealt round-robin to the members subscribed to it. */
  function rebalance(group: Group): void {
    for (const member of group.members) {
      for (const topic of member.options.topics) {
        if (!group.topics.has(topic)) {
          // A new group starts at the earliest retained event (like `fromBeginning`), or at the end
          // when it asked for the latest only.
          const logs = topicLog(topic);
          const latest = member.options.startAt === 'latest';
          group.topics.set(
            topic,
            logs.map((log) => ({
              committed: latest ? log.base + log.entries.length : log.base,
              owner: null,
              chain: Promise.resolve(),
              handover: new AbortController(),
              pending: null,
            })),
          );
        }
      }
    }
    for (const [topic, states] of group.topics) {
      const subscribed = group.members.filter((m) => m.options.topics.includes(topic));
      states.forEach((state, partition) => {
        const owner = subscribed.length === 0 ? null : subscribed[partition % subscribed.length]!;
        if (state.owner === owner) return;
        state.handover.abort();
        state.handover = new AbortController();
        state.owner = owner;
        if (owner) {
          const signal = AbortSignal.any([state.handover.signal, owner.stop.signal]);
          // Never let the chain reject: a rejected link would skip every later owner of the partition.
          const run = state.chain
            .then(() => runPartition(owner, topic, partition, state, signal))
            .catch((err: unknown) => failMember(owner, err, topic, partition));
          state.chain = run;
          owner.runs.add(run);
          void run.finally(() => owner.runs.delete(run));
        }
      });
    }
  }

  /** One partition's worker for one member: handle events in offset order until handed over or stopped. */
  async function runPartition(
    member: Member,
    topic: string,
    partition: number,
    state: GroupPartition,
    signal: AbortSignal,
  ): Promise<void> {
    const log = topicLog(topic)[partition]!;
    while (!signal.aborted && state.owner === member) {
      if (state.committed < log.base) state.committed = log.base; // trimmed by retention
      const entry = log.entries[state.committed - log.base];
      if (!entry) {
        await new Promise<void>((resolve) => {
          const wake = (): void => {
            log.waiters.delete(wake);
            signal.removeEventListener('abort', wake);
            resolve();
          };
          log.waiters.add(wake);
          signal.addEventListener('abort', wake, { once: true });
        });
        continue;
      }
      const offset = state.committed;
      const result = await deliver(
        {
          topic,
          partition,
          offset: String(offset),
          key: entry.key,
          value: entry.value,
          headers: entry.headers,
        },
        {
          system: 'memory',
          subscription: member.options,
          permits: member.permits,
          logger,
          signal,
          firstAttempt: state.pending?.offset === offset ? state.pending.nextAttempt : 1,
        },
      );
      if (result.kind === 'aborted') {
        state.pending = { offset, nextAttempt: result.nextAttempt };
        return;
      }
      if (result.kind === 'dead-letter') {
        append(deadLetterTopic(topic), { key: entry.key, value: entry.value, headers: result.headers });
      }
      state.pending = null;
      state.committed = offset + 1;
      trim(topic, partition);
    }
  }

  /**
   * A worker's loop threw outside the handler (the delivery itself failed): this member cannot go
   * on, so it leaves the group (its partitions go to the others, the failed event uncommitted) and
   * its subscription's `ended` rejects once its workers have stopped. Not awaited here: the failing
   * worker is one of the runs closeMember waits for.
   */
  function failMember(member: Member, err: unknown, topic: string, partition: number): void {
    if (!members.has(member)) return;
    member.failure = err;
    logger.error(
      { err, topic, partition, group: member.group.name },
      'partition worker failed; subscription ended',
    );
    void closeMember(member).then(() => member.ending.failed(err));
  }

  async function closeAsked(member: Member): Promise<void> {
    await closeMember(member);
    if (member.failure === undefined) member.ending.closed();
  }

  async function closeMember(member: Member): Promise<void> {
    if (!members.delete(member)) return;
    const group = member.group;
    group.members = group.members.filter((m) => m !== member);
    member.stop.abort(); // interrupts waits and backoffs; running handlers finish
    rebalance(group); // its partitions go to the others, after its workers end (the chain)
    await Promise.all([...member.runs]);
  }

  return {
    kind: 'memory',

    async publish(events: OutgoingEvent[]): Promise<void> {
      if (closed) throw new Error('memory event bus: publish after close');
      await withPublishSpan('memory', events, async () => {
        // Prepared whole first: a bad event means none of the batch is published.
        for (const event of prepareOutgoing(events)) {
          append(event.topic, { key: event.key, value: event.value, headers: event.headers });
        }
      });
    },

    async subscribe(subscribeOptions: SubscribeOptions): Promise<Subscription> {
      if (closed) throw new Error('memory event bus: subscribe after close');
      const normalised = normaliseSubscribeOptions(subscribeOptions);
      const group = groupOf(normalised.group);
      if (normalised.concurrency > partitionCount) {
        logger.warn(
          { group: group.name, concurrency: normalised.concurrency, partitions: partitionCount },
          `memory event bus: concurrency ${normalised.concurrency} is more than the ${partitionCount} partitions per topic; at most ${partitionCount} events per topic are handled at once`,
        );
      }
      const member: Member = {
        group,
        options: normalised,
        permits: createSemaphore(normalised.concurrency),
        stop: new AbortController(),
        runs: new Set(),
        ending: createEnding(),
      };
      members.add(member);
      group.members.push(member);
      rebalance(group);
      logger.debug({ group: group.name, topics: normalised.topics }, 'subscribed');
      return {
        close: () => closeAsked(member),
        ended: member.ending.ended,
      };
    },

    async ping(): Promise<void> {
      if (closed) throw new Error('memory event bus is closed');
    },

    async close(): Promise<void> {
      closed = true;
      await Promise.all([...members].map(closeAsked));
    },
  };
}

/** FNV-1a over the key's UTF-16 code units: cheap, stable, and spreads ids well. */
function partitionOf(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}
