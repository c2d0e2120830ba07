// A kaboodle's cover: the chosen or first item picture, else the first page of its first document
// (its title over the start of its text), else an empty Deco frame.
import type { KaboodleCover as Cover } from '@kaboodle/kit';

export function KaboodleCover({ cover, smart }: { cover: Cover | null; smart: boolean }) {
  if (cover?.image_url) {
    return (
      <div className="kb-cover">
        <img src={cover.image_url} alt={`Cover: ${cover.title}`} loading="lazy" />
      </div>
    );
  }
  if (cover) {
    return (
      <div className="kb-cover kb-cover--page" aria-label={`Cover: first page of ${cover.title}`} role="img">
        <p className="kb-cover__title">{cover.title}</p>
        <p className="kb-cover__text">{cover.excerpt}</p>
      </div>
    );
  }
  return (
    <div className="kb-cover kb-cover--empty" aria-hidden="true">
      <span>{smart ? '⌕' : '❖'}</span>
    </div>
  );
}
