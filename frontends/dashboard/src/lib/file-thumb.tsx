// A file's small picture: the image itself when there is one, else an icon with its type.
import { useState } from 'react';
import { DecoIcon, type DecoIconName } from '@kaboodle/kit';
import { typeLabel } from './format.ts';

function iconFor(type: string): DecoIconName {
  if (type.startsWith('image/')) return 'camera';
  if (type === 'link' || type === 'text/html') return 'link';
  if (type === 'application/pdf') return 'book';
  return 'scroll';
}

export function FileThumb({
  src,
  type,
  name,
  size = 24,
}: {
  src: string | null;
  type: string;
  name: string;
  size?: number;
}) {
  const [broken, setBroken] = useState(false);
  if (src && !broken) {
    return <img src={src} alt={`Preview of ${name}`} loading="lazy" onError={() => setBroken(true)} />;
  }
  return (
    <span className="kbd-thumb__ext" aria-hidden="true">
      <DecoIcon name={iconFor(type)} size={size} />
      <span>{type === 'link' ? 'LINK' : typeLabel(type, name)}</span>
    </span>
  );
}
