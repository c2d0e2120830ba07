// A worker for worker-pool tests: does what the task says (answer, spin, leak, throw, exit).
import { threadId } from 'node:worker_threads';
import { serveWorkerTasks } from '../serve-worker-tasks.ts';

export type Behaviour =
  | { do: 'echo'; value: unknown }
  | { do: 'spin'; ms: number }
  | { do: 'leak' }
  | { do: 'throw'; message: string; code?: string }
  | { do: 'exit'; code: number };

serveWorkerTasks<Behaviour, unknown>(async (task) => {
  switch (task.do) {
    case 'echo':
      return { value: task.value, threadId };
    case 'spin': {
      // Blocks this thread's event loop: only terminating the thread can stop it.
      const end = Date.now() + task.ms;
      while (Date.now() < end) {
        /* busy */
      }
      return { threadId };
    }
    case 'leak': {
      const hoard: string[][] = [];
      for (;;) hoard.push(Array.from({ length: 100_000 }, (_, i) => `leak-${i}-${hoard.length}`));
    }
    case 'throw': {
      const err = new Error(task.message) as Error & { code?: string };
      if (task.code) err.code = task.code;
      throw err;
    }
    case 'exit':
      process.exit(task.code);
  }
});
