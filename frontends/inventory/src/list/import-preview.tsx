// The first rows of an import as they would be stored, a row with problems marked.
import type { ImportReport } from '../inventory-types.ts';

export interface ImportPreviewProps {
  rows: ImportReport['preview'];
  fields: string[];
  labels: readonly (readonly [string, string])[];
}

function cellText(v: unknown): string {
  if (Array.isArray(v)) return v.map((t: { tag?: string }) => t.tag ?? String(t)).join(', ');
  return v === null || v === undefined ? '' : String(v);
}

export function ImportPreview({ rows, fields, labels }: ImportPreviewProps) {
  if (rows.length === 0) return null;
  return (
    <div className="kb-table-wrap" tabIndex={0} role="region" aria-label="Import preview">
      <table className="kb-table">
        <caption>Preview of the first rows</caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            {fields.map((f) => (
              <th key={f} scope="col">
                {labels.find(([v]) => v === f)?.[1] ?? f}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.line} className={row.errors.length ? 'has-error' : undefined}>
              <td>{row.line}</td>
              {fields.map((f) => (
                <td key={f}>{cellText(row.fields[f])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
