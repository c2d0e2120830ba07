// The near-duplicate review: pairs of documents or items that look the same. "Not duplicates" hides a
// pair for good; "Merge" keeps the first, moves the other's kaboodle memberships to it and deletes the
// other (and, when asked, its uploaded file too).
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, insightsApi, kaboodleErrorText, type DuplicatePair } from '@kaboodle/kit';

const ref = (e: DuplicatePair['a']) => ({ type: e.type, id: e.id });

export function DuplicatesReview({ pairs, onChanged }: { pairs: DuplicatePair[]; onChanged: () => void }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [alsoFile, setAlsoFile] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const key = (p: DuplicatePair) => `${p.a.type}:${p.a.id}|${p.b.id}`;

  const act = async (p: DuplicatePair, what: 'dismiss' | 'merge') => {
    setBusy(key(p));
    setMessage(null);
    try {
      if (what === 'dismiss') {
        await insightsApi.dismiss(ref(p.a), ref(p.b));
        setMessage(`Kept “${p.a.title}” and “${p.b.title}” apart.`);
      } else {
        const r = await insightsApi.merge(ref(p.a), ref(p.b));
        if (alsoFile && r.removed_file_id) await insightsApi.deleteFile(r.removed_file_id);
        setMessage(`Merged “${p.b.title}” into “${p.a.title}”${alsoFile ? ' and deleted its file' : ''}.`);
      }
      onChanged();
    } catch (err) {
      setMessage(kaboodleErrorText(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="kb-insight-list kb-dups" aria-label="Near-duplicates">
      <h3>Near-duplicates</h3>
      {message && <p role="status">{message}</p>}
      {pairs.length === 0 ? (
        <p className="kb-muted">No near-duplicates to review.</p>
      ) : (
        <>
          <label className="kb-dups__file">
            <input type="checkbox" checked={alsoFile} onChange={(e) => setAlsoFile(e.target.checked)} /> When
            merging, also delete the removed one’s uploaded file
          </label>
          <ul>
            {pairs.slice(0, 8).map((p) => (
              <li key={key(p)} className="kb-dups__pair">
                <p>
                  <Link to={p.a.link}>{p.a.title || 'Untitled'}</Link> and{' '}
                  <Link to={p.b.link}>{p.b.title || 'Untitled'}</Link>
                  <span className="kb-insight-list__meta">
                    {' '}
                    ·{' '}
                    {p.reason === 'identical_file'
                      ? 'identical files'
                      : `${Math.round(p.similarity * 100)}% alike`}
                  </span>
                </p>
                <div className="kb-dups__actions">
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={busy !== null}
                    onClick={() => void act(p, 'merge')}
                    aria-label={`Merge ${p.b.title} into ${p.a.title}`}
                  >
                    Merge
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={busy !== null}
                    onClick={() => void act(p, 'dismiss')}
                  >
                    Not duplicates
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
