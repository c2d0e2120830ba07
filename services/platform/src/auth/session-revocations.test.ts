import { describe, expect, it } from 'vitest';
import { createEvent, encodeEvent, eventKey, timestampFromDate, Topics } from '@kaboodle/proto';
import { createMemoryEventBus } from '../adapters/memory-event-bus.ts';
import { createSessionRevocationList, subscribeSessionRevocations } from './session-revocations.ts';

describe('session revocation list', () => {
  it('reports a revoked session until its tokens have expired, then forgets it', async () => {
    let t = 1_000_000;
    const list = createSessionRevocationList(() => t);
    list.revoke('s1', new Date(t + 60_000));
    expect(await list.isRevoked({ sessionId: 's1' })).toBe(true);
    expect(await list.isRevoked({ sessionId: 's2' })).toBe(false);
    t += 60_000 + 5 * 60_000 + 1;
    expect(await list.isRevoked({ sessionId: 's1' })).toBe(false);
    expect(list.size).toBe(0);
  });

  it('learns revocations from the bus, in every subscribed process', async () => {
    const bus = createMemoryEventBus();
    const a = createSessionRevocationList();
    const b = createSessionRevocationList();
    const subs = [await subscribeSessionRevocations(bus, a), await subscribeSessionRevocations(bus, b)];
    const event = createEvent(Topics.sessionRevoked, {
      ownerId: 'user-1',
      sessionId: 'session-9',
      tokensExpireAt: timestampFromDate(new Date(Date.now() + 600_000)),
    });
    await bus.publish([
      {
        topic: Topics.sessionRevoked,
        key: eventKey(Topics.sessionRevoked, event),
        value: encodeEvent(Topics.sessionRevoked, event),
      },
    ]);
    await expect.poll(() => a.isRevoked({ sessionId: 'session-9' })).toBe(true);
    await expect.poll(() => b.isRevoked({ sessionId: 'session-9' })).toBe(true);
    for (const s of subs) await s.close();
    await bus.close();
  });
});
