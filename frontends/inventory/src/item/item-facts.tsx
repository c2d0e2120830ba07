// What was measured in the photo: dominant colours as swatches (name, hex, share), barcodes and QR
// codes with what their lookup found and where, and how sure each AI field is, and why.
import { confidenceWord, percent, sourceLabel } from '../inventory-format.ts';
import type { BarcodeLookup, InventoryDetail } from '../inventory-types.ts';

const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  category: 'Category',
  material: 'Material',
  color: 'Color',
  colors: 'Colours',
  dimensions: 'Dimensions',
  origin_source: 'Origin',
  import_cost: 'Import Cost',
  retail_price: 'Retail Price',
  hashtags: 'Tags',
  objects: 'Objects',
  barcodes: 'Barcodes',
};

export function ColourSwatches({ item }: { item: InventoryDetail }) {
  if (item.colors.length === 0) return <p className="kb-muted">No colours measured.</p>;
  return (
    <ul className="kb-inv-swatches" aria-label="Dominant colours">
      {item.colors.map((c) => (
        <li key={`${c.name}-${c.hex}`}>
          <span className="kb-inv-swatch" style={{ background: c.hex || 'transparent' }} aria-hidden="true" />
          <span>{c.name}</span>
          <code>{c.hex || '—'}</code>
          <span className="kb-muted">{percent(c.share)}%</span>
        </li>
      ))}
    </ul>
  );
}

export function Barcodes({ item }: { item: InventoryDetail }) {
  if (item.barcodes.length === 0)
    return <p className="kb-muted">No barcode or QR code found in the photo.</p>;
  return (
    <ul className="kb-inv-barcodes">
      {item.barcodes.map((b) => {
        const lookup = (b.lookup ?? null) as BarcodeLookup | null;
        return (
          <li key={`${b.format}-${b.value}`}>
            <strong>{b.format}</strong> <code>{b.value}</code>
            {lookup?.found ? (
              <p>
                {[lookup.product_name, lookup.brand].filter(Boolean).join(' · ')}
                {lookup.category ? ` — ${lookup.category}` : ''}
                <span className="kb-muted"> (found by {lookup.source || 'lookup'})</span>
              </p>
            ) : (
              <p className="kb-muted">
                Not found{lookup?.source ? ` in ${lookup.source}` : ''}
                {lookup?.origin_country ? `; registered in ${lookup.origin_country}` : ''}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export function Provenance({ item }: { item: InventoryDetail }) {
  const rows = Object.entries(item.provenance).sort(([a], [b]) => a.localeCompare(b));
  if (rows.length === 0) return null;
  return (
    // scrolls sideways on a phone: focusable so a keyboard can scroll it too
    <div className="kb-table-wrap" tabIndex={0} role="region" aria-label="How each field was found">
      <table className="kb-table kb-inv-provenance">
        <caption>How each field was found</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Confidence</th>
            <th scope="col">From</th>
            <th scope="col">Evidence</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([field, p]) => (
            <tr key={field}>
              <td>{FIELD_LABELS[field] ?? field}</td>
              <td>
                <meter
                  min={0}
                  max={1}
                  value={p.confidence}
                  aria-label={`${FIELD_LABELS[field] ?? field} confidence`}
                />{' '}
                {percent(p.confidence)}% · {confidenceWord(p.confidence)}
              </td>
              <td>
                {sourceLabel(p.source)}
                {p.method ? <span className="kb-muted"> ({p.method})</span> : null}
              </td>
              <td className="kb-inv-clamp">{p.evidence}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
