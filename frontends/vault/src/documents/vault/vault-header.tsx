// The vault's header: the title, the view switch (Table, Grid, Graph, Browser) and the export links
// for what the filters select.
import { VAULT_VIEWS, type VaultView } from '../document-types.ts';
import { exportUrl, type ListQuery } from '../documents-api.ts';

export function VaultHeader({
  view,
  onView,
  query,
}: {
  view: VaultView;
  onView: (view: VaultView) => void;
  query: ListQuery;
}) {
  return (
    <header className="kb-vault__header">
      <div>
        <p className="kb-eyebrow">Your library</p>
        <h1 id="kb-vault-heading">Document Vault</h1>
      </div>
      <div className="kb-vault__header-actions">
        <div className="kb-views" role="radiogroup" aria-label="View">
          {VAULT_VIEWS.map((v) => (
            <button
              key={v.id}
              type="button"
              role="radio"
              aria-checked={view === v.id}
              className={`kb-views__option${view === v.id ? ' is-active' : ''}`}
              onClick={() => onView(v.id)}
            >
              {v.label}
            </button>
          ))}
        </div>
        <div className="kb-vault__export" role="group" aria-label="Export">
          <a className="kb-button kb-button--ghost kb-button--sm" href={exportUrl('csv', query)} download>
            Export CSV
          </a>
          <a className="kb-button kb-button--ghost kb-button--sm" href={exportUrl('json', query)} download>
            Export JSON
          </a>
        </div>
      </div>
    </header>
  );
}
