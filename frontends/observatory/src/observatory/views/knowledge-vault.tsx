// "Knowledge Vault": the documents' figures (total, indexed, categories) and the latest ones.
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { listClient, type LibraryCounts } from '@kaboodle/kit';
import { StatRow } from './stat-row.tsx';

interface Doc {
  id: string;
  title: string;
  author: string;
  category: string;
  created_at: string;
  file_name: string;
}

export function KnowledgeVault({ library, indexed }: { library: LibraryCounts; indexed: number }) {
  const [docs, setDocs] = useState<Doc[] | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    listClient
      .getList<Doc>('/api/documents', { query: { page: 1, limit: 6 }, signal: ctl.signal })
      .then((p) => setDocs(p.items))
      .catch(() => !ctl.signal.aborted && setDocs([]));
    return () => ctl.abort();
  }, []);
  return (
    <div className="kb-obs-view">
      <StatRow
        stats={[
          { label: 'Documents', value: library.documents },
          { label: 'Indexed', value: Math.min(indexed, library.documents) },
          { label: 'Categories', value: library.document_categories },
        ]}
      />
      <h3 className="kb-obs-subtitle">Latest in the vault</h3>
      <ul className="kb-obs-docs">
        {(docs ?? []).map((d) => (
          <li key={d.id}>
            <Link to={`/documents?open=${d.id}`}>{d.title || d.file_name || 'Untitled'}</Link>
            <span className="kb-muted">
              {[d.author, d.category].filter(Boolean).join(' · ') || 'No details yet'}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
