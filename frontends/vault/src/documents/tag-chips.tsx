// Hashtags with their relevancy (0..1) as chips with a bar and a percentage, most relevant first.
import type { Hashtag } from './document-types.ts';

export function TagChips({ tags, max = 6 }: { tags: Hashtag[]; max?: number }) {
  if (tags.length === 0) return null;
  const sorted = [...tags].sort((a, b) => b.relevancy - a.relevancy);
  const shown = sorted.slice(0, max);
  return (
    <ul className="kb-tags" aria-label="Tags">
      {shown.map((t) => {
        const pct = Math.round(t.relevancy * 100);
        return (
          <li key={t.tag} className="kb-tag" title={`#${t.tag.replace(/^#/, '')}: relevancy ${pct}%`}>
            <span className="kb-tag__name">#{t.tag.replace(/^#/, '')}</span>
            <span className="kb-tag__pct">{pct}%</span>
            <span className="kb-tag__bar" aria-hidden="true">
              <span style={{ width: `${pct}%` }} />
            </span>
          </li>
        );
      })}
      {sorted.length > max && <li className="kb-tag kb-tag--more">+{sorted.length - max}</li>}
    </ul>
  );
}
