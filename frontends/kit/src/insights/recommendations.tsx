// "You may also want" (GET /api/insights/recommendations) and "Related items" (GET /api/search/related):
// small lists for document pages, item pages and the observatory. Each loads on its own and says
// plainly when there is nothing (yet) or when the search service cannot be reached.
import { useEffect, useEffectEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import type { MemberRef } from '../kaboodles/kaboodles-api.ts';
import { entityLink, insightsApi, type Recommendation, type RelatedHit } from './insights-api.ts';
import './insights.css';

const TYPE_LABEL = { document: 'Document', inventory_item: 'Inventory Item' } as const;

/** Loads once per `key` (null: nothing to load); `load` is read when the key changes. */
function useLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  key: string | null,
): { value: T | null; error: boolean } {
  const [state, setState] = useState<{ value: T | null; error: boolean }>({ value: null, error: false });
  const loadLatest = useEffectEvent(load);
  useEffect(() => {
    if (key === null) return;
    const ctl = new AbortController();
    setState({ value: null, error: false });
    loadLatest(ctl.signal)
      .then((value) => setState({ value, error: false }))
      .catch((err: unknown) => {
        if (ctl.signal.aborted) return;
        console.warn('Loading insights failed', err);
        setState({ value: null, error: true });
      });
    return () => ctl.abort();
  }, [key]);
  return state;
}

export interface RecommendationsProps {
  /** What the person has open: recommendations start from it. */
  context?: MemberRef[];
  /** Already in view: never recommended. */
  exclude?: MemberRef[];
  limit?: number;
  title?: string;
  /** Use these instead of loading (the observatory's overview has them). */
  items?: Recommendation[];
}

export function Recommendations({
  context = [],
  exclude = [],
  limit = 6,
  title = 'You may also want',
  items,
}: RecommendationsProps) {
  const key = [...context, ...exclude].map((r) => `${r.type}:${r.id}`).join(',');
  // Given items are shown as they are; otherwise one request per context and limit.
  const loaded = useLoad(
    (signal) => insightsApi.recommendations({ context, exclude, limit }, signal),
    items ? null : `${key}|${limit}`,
  );
  const value = items ? { available: true, items } : loaded.value;
  const list = value?.items ?? null;
  return (
    <section className="kb-insight-list" aria-label={title}>
      <h3>{title}</h3>
      {(!items && loaded.error) || value?.available === false ? (
        <p className="kb-muted">Recommendations are not available right now.</p>
      ) : list === null ? (
        <p className="kb-muted" role="status">
          Looking for suggestions...
        </p>
      ) : list.length === 0 ? (
        <p className="kb-muted">No suggestions yet: add more documents and items.</p>
      ) : (
        <ul>
          {list.map((r) => (
            <li key={`${r.entity.type}:${r.entity.id}`} className="kb-insight-list__item">
              {r.entity.image_url && (
                <img src={r.entity.image_url} alt="" className="kb-insight-list__thumb" />
              )}
              <div>
                <Link to={r.entity.link || entityLink(r.entity)}>{r.entity.title || 'Untitled'}</Link>
                <span className="kb-insight-list__meta">
                  {TYPE_LABEL[r.entity.type]}
                  {r.entity.category ? ` · ${r.entity.category}` : ''} · near “{r.because.title || 'Untitled'}
                  ”
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function RelatedItems({
  entity,
  limit = 6,
  title = 'Related items',
}: {
  entity: MemberRef;
  limit?: number;
  title?: string;
}) {
  const loaded = useLoad(
    (signal) => insightsApi.related(entity, limit, signal),
    `${entity.type}:${entity.id}|${limit}`,
  );
  const hits: RelatedHit[] | null = loaded.value;
  return (
    <section className="kb-insight-list" aria-label={title}>
      <h3>{title}</h3>
      {loaded.error ? (
        <p className="kb-muted">Related items are not available right now.</p>
      ) : hits === null ? (
        <p className="kb-muted" role="status">
          Finding related items...
        </p>
      ) : hits.length === 0 ? (
        <p className="kb-muted">Nothing related yet.</p>
      ) : (
        <ul>
          {hits.map((h) => (
            <li key={`${h.type}:${h.id}`} className="kb-insight-list__item">
              {h.type === 'inventory_item' && h.image_url && (
                <img src={h.image_url} alt="" className="kb-insight-list__thumb" />
              )}
              <div>
                <Link to={entityLink(h)}>{h.title || h.name || 'Untitled'}</Link>
                <span className="kb-insight-list__meta">
                  {TYPE_LABEL[h.type]}
                  {h.category ? ` · ${h.category}` : ''} · {Math.round(h.score * 100)}% alike
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
