// HTML drag and drop over a list (table rows or grid cards): drag one onto another to put it there.
// The Move up / Move down buttons do the same for keyboards and touch screens.
import { useState, type DragEvent } from 'react';

export interface DragOrder {
  /** Spread on each draggable element. */
  props(index: number): {
    draggable: boolean;
    onDragStart: (e: DragEvent) => void;
    onDragOver: (e: DragEvent) => void;
    onDragLeave: () => void;
    onDrop: (e: DragEvent) => void;
    onDragEnd: () => void;
    'data-dragging': boolean;
    'data-drop-target': boolean;
  };
}

export function useDragOrder(enabled: boolean, onMove: (from: number, to: number) => void): DragOrder {
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  return {
    props: (index) => ({
      draggable: enabled,
      onDragStart: (e) => {
        setDragging(index);
        e.dataTransfer.effectAllowed = 'move';
        e.dataTransfer.setData('text/plain', String(index));
      },
      onDragOver: (e) => {
        if (dragging === null && !e.dataTransfer.types.includes('text/plain')) return;
        e.preventDefault(); // allows the drop
        e.dataTransfer.dropEffect = 'move';
        if (over !== index) setOver(index);
      },
      onDragLeave: () => setOver((o) => (o === index ? null : o)),
      onDrop: (e) => {
        e.preventDefault();
        const from = dragging ?? Number(e.dataTransfer.getData('text/plain'));
        setDragging(null);
        setOver(null);
        if (Number.isInteger(from) && from !== index) onMove(from, index);
      },
      onDragEnd: () => {
        setDragging(null);
        setOver(null);
      },
      'data-dragging': dragging === index,
      'data-drop-target': over === index && dragging !== index,
    }),
  };
}
