// kafkajs 2.2.4 (the last release; unmaintained since 2023) keeps a 1 ms timer loop running on every
// broker connection once the first response arrives (kafkajs issues #1556, #1704, #1751, open):
// RequestQueue.scheduleCheckPendingRequests arms `setTimeout(throttledUntil - Date.now())` even when
// nothing waits and nothing is throttled. throttledUntil is -1 then, Node runs a negative delay after
// 1 ms (printing TimeoutNegativeWarning once), and the callback arms the next one. A process with a
// producer, an admin and consumers on three brokers ran a dozen such loops for as long as it lived:
// idle, it woke ~10,000 times a second (kafkajs-idle-timers.test.ts counts them).
//
// The upstream fix proposed in #1703/#1768 is applied here, at load, to the one RequestQueue class
// kafkajs uses: with no request waiting and no throttle to wait out, nothing is scheduled, since the
// next push() that must wait, or the next response, checks the queue again anyway. A waiting request
// or a broker's throttle keeps kafkajs' own scheduling. It is a patch of a library's internals, kept
// only because the library has no release with the fix; the test fails if an upgrade moves the
// class or makes the loop come back.
import { createRequire } from 'node:module';

interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  scheduleCheckPendingRequests(): void;
}

const PATCHED = Symbol.for('kaboodle.kafkajs.idle-timers');
const require = createRequire(import.meta.url);
const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as {
  prototype: RequestQueueInternals & { [PATCHED]?: true };
};

const proto = RequestQueue.prototype;
if (!proto[PATCHED]) {
  const schedule = proto.scheduleCheckPendingRequests;
  proto.scheduleCheckPendingRequests = function (this: RequestQueueInternals): void {
    if (this.pending.length === 0 && this.throttledUntil <= Date.now()) return;
    schedule.call(this);
  };
  proto[PATCHED] = true;
}

/** Whether the idle-loop fix is in place (kafka-event-bus.ts imports this module first). */
export const kafkajsIdleTimersFixed = (): boolean => proto[PATCHED] === true;
