// The vault's semantic results (docs/product.md#document-vault, #data): "Search Results", each with its
// summary, the "Relevant Excerpt:" when there is one, and a Download button.
import { Button } from '@kaboodle/kit';
import type { SemanticResult } from './document-types.ts';

export function SemanticResults({
  results,
  onDownload,
  onOpen,
}: {
  results: SemanticResult[];
  onDownload: (r: SemanticResult) => void;
  onOpen: (r: SemanticResult) => void;
}) {
  return (
    <section className="kb-semantic-results" aria-labelledby="kb-semantic-results-heading">
      <h2 id="kb-semantic-results-heading">Search Results</h2>
      {results.length === 0 ? (
        <p className="kb-muted">No documents matched that meaning. Try other words.</p>
      ) : (
        <ol className="kb-semantic-results__list">
          {results.map((r) => (
            <li key={r.id} className="kb-semantic-result kb-frame" data-testid="semantic-result">
              <div className="kb-semantic-result__head">
                <h3>
                  <button type="button" className="kb-vault-link" onClick={() => onOpen(r)}>
                    {r.title || 'Untitled'}
                  </button>
                </h3>
                {typeof r.score === 'number' && (
                  <span className="kb-search__score">{Math.round(r.score * 100)}% match</span>
                )}
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => onDownload(r)}
                  aria-label={`Download ${r.title || 'document'}`}
                >
                  Download
                </Button>
              </div>
              {r.summary && <p>{r.summary}</p>}
              {r.excerpt && (
                <blockquote className="kb-semantic-result__excerpt">
                  <strong>Relevant Excerpt:</strong> {r.excerpt}
                </blockquote>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
