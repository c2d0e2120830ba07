// "Visual Intelligence" (only when an item has a picture): images, how many were analysed, their file
// types, and the pictures themselves; one that fails to load shows a placeholder (retried once).
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { api, listClient, type LibraryCounts } from '@kaboodle/kit';
import { StatRow } from './stat-row.tsx';

interface Item {
  id: string;
  name: string;
  image_url: string;
  file_type: string;
}

function Picture({ item }: { item: Item }) {
  const [tries, setTries] = useState(0);
  const failed = tries >= 2;
  return failed ? (
    <div
      className="kb-obs-picture kb-obs-picture--missing"
      role="img"
      aria-label={`${item.name}: image not available`}
    >
      Image not available
    </div>
  ) : (
    <img
      key={tries}
      className="kb-obs-picture"
      src={api.url(item.image_url)}
      alt={item.name || 'Unnamed Product'}
      loading="lazy"
      onError={() => setTries((t) => t + 1)}
    />
  );
}

export function VisualIntelligence({ library }: { library: LibraryCounts }) {
  const [items, setItems] = useState<Item[] | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    listClient
      .getList<Item>('/api/inventory', { query: { page: 1, limit: 20 }, signal: ctl.signal })
      .then((p) => setItems(p.items.filter((i) => (i.file_type ?? '').startsWith('image/')).slice(0, 10)))
      .catch(() => !ctl.signal.aborted && setItems([]));
    return () => ctl.abort();
  }, []);
  return (
    <div className="kb-obs-view">
      <StatRow
        stats={[
          { label: 'Images', value: library.images },
          { label: 'Analysed', value: library.images_analysed },
          { label: 'File types', value: library.image_types },
        ]}
      />
      <ul className="kb-obs-pictures">
        {(items ?? []).map((i) => (
          <li key={i.id}>
            <Link to={`/inventory/${i.id}`} aria-label={i.name || 'Unnamed Product'}>
              <Picture item={i} />
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
