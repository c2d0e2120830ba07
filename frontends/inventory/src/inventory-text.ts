// Sentences the inventory screens show after an action.
import type { AddedToKaboodle } from '@kaboodle/kit';

/** "Added 2 items to Summer fair (1 already there)." */
export const addedText = (r: AddedToKaboodle) =>
  `Added ${r.added} item${r.added === 1 ? '' : 's'} to ${r.name}` +
  (r.already > 0 ? ` (${r.already} already there).` : '.');
