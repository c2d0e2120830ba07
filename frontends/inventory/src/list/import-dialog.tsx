// Import an inventory from a CSV (Homebox, InvenTree or any spreadsheet): the file is checked first
// (nothing stored) and the preview shows how its columns map to item fields, the first rows and
// every problem with its line; the mapping can be changed; "Import" stores all rows or none.
import { useState } from 'react';
import { Banner, Button, Dialog, isApiError } from '@kaboodle/kit';
import { importCsv } from '../inventory-api.ts';
import type { ImportReport } from '../inventory-types.ts';
import { ImportPreview } from './import-preview.tsx';

const FIELDS = [
  ['', 'Skip this column'],
  ['name', 'Name'],
  ['description', 'Description'],
  ['category', 'Category'],
  ['material', 'Material'],
  ['color', 'Color'],
  ['dimensions', 'Dimensions'],
  ['origin_source', 'Origin'],
  ['import_cost', 'Import Cost'],
  ['retail_price', 'Retail Price'],
  ['currency', 'Currency'],
  ['hashtags', 'Tags'],
] as const;

const MAX_BYTES = 10 * 1024 * 1024;

export function ImportDialog({
  open,
  onClose,
  onImported,
}: {
  open: boolean;
  onClose: () => void;
  onImported: (n: number) => void;
}) {
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [mapping, setMapping] = useState<Record<string, string> | undefined>(undefined);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const reset = () => {
    setFile(null);
    setMapping(undefined);
    setReport(null);
    setError(null);
  };
  const check = async (f: { name: string; text: string }, m?: Record<string, string>) => {
    setBusy(true);
    setError(null);
    try {
      const { report: r } = await importCsv(f.text, {
        fileName: f.name,
        dryRun: true,
        ...(m ? { mapping: m } : {}),
      });
      setReport(r);
      setMapping(r.mapping);
    } catch (err) {
      setReport(null);
      setError(isApiError(err) ? (err.serverMessage ?? err.message) : String(err));
    } finally {
      setBusy(false);
    }
  };
  const choose = async (picked: File | undefined) => {
    reset();
    if (!picked) return;
    if (picked.size > MAX_BYTES) {
      setError(
        `The CSV file is larger than 10 MB (${(picked.size / 1024 / 1024).toFixed(2)}MB); split it into smaller files`,
      );
      return;
    }
    const f = { name: picked.name, text: await picked.text() };
    setFile(f);
    await check(f);
  };
  const commit = async () => {
    if (!file) return;
    setBusy(true);
    try {
      const { ok, report: r } = await importCsv(file.text, {
        fileName: file.name,
        dryRun: false,
        ...(mapping ? { mapping } : {}),
      });
      setReport(r);
      if (ok) {
        onImported(r.imported);
        reset();
        onClose();
      }
    } catch (err) {
      setError(isApiError(err) ? (err.serverMessage ?? err.message) : String(err));
    } finally {
      setBusy(false);
    }
  };

  const shown = report?.preview.slice(0, 5) ?? [];
  const fields = Object.entries(mapping ?? {}).filter(([, f]) => f);
  return (
    <Dialog
      open={open}
      onClose={() => {
        reset();
        onClose();
      }}
      title="Import inventory from CSV"
      maxWidth={900}
      className="kb-inv-import"
    >
      <p className="kb-muted">
        A spreadsheet exported from Kaboodle, Homebox or InvenTree, or your own with a Name column. Nothing is
        stored until you import, and only if every row is right.
      </p>
      <label className="kb-field">
        <span>CSV file</span>
        <input type="file" accept=".csv,text/csv" onChange={(e) => void choose(e.target.files?.[0])} />
      </label>
      {error && <Banner tone="error">{error}</Banner>}
      {busy && <p className="kb-muted">Checking the file...</p>}
      {report && (
        <>
          <h3 className="kb-inv-subhead">Columns</h3>
          <div className="kb-inv-mapping">
            {report.columns.map((column) => (
              <label key={column} className="kb-inv-inline">
                <span>{column}</span>
                <select
                  value={mapping?.[column] ?? ''}
                  onChange={(e) => {
                    const next = { ...(mapping ?? {}), [column]: e.target.value };
                    setMapping(next);
                    if (file) void check(file, next);
                  }}
                >
                  {FIELDS.map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </div>
          <p role="status">
            {report.rows} row{report.rows === 1 ? '' : 's'}, {report.valid} ready. {report.message}
          </p>
          {report.errors.length > 0 && (
            <ul className="kb-inv-errors" aria-label="Problems">
              {report.errors.map((e) => (
                <li key={`${e.line}-${e.message}`}>{e.message}</li>
              ))}
            </ul>
          )}
          <ImportPreview rows={shown} fields={fields.map(([, f]) => f)} labels={FIELDS} />
        </>
      )}
      <div className="kb-inv-actions">
        <Button
          variant="ghost"
          onClick={() => {
            reset();
            onClose();
          }}
        >
          Cancel
        </Button>
        <Button
          disabled={!report || report.errors.length > 0 || report.valid === 0 || busy}
          onClick={() => void commit()}
        >
          Import {report?.valid ?? 0} item{report?.valid === 1 ? '' : 's'}
        </Button>
      </div>
    </Dialog>
  );
}
