// The vault table's cells, by column: the title with its select box, badges and link to the reader,
// plain values, long texts clamped to three lines, tags, and the row's Download button.
import type { ReactNode } from 'react';
import { Button, SampleBadge, type Selection } from '@kaboodle/kit';
import type { VaultDocument } from '../../document-types.ts';
import { TagChips } from '../../tag-chips.tsx';
import type { TableHeader } from '../column-chooser.tsx';

/** Clamped to three lines; the whole text shows in place on hover or keyboard focus. */
function Expandable({ text }: { text: string }) {
  if (!text) return <span className="kb-muted">—</span>;
  return (
    <div className="kb-expand" tabIndex={0}>
      {text}
    </div>
  );
}

export interface RowActions {
  onDownload: (doc: VaultDocument) => void;
  onOpen: (doc: VaultDocument) => void;
  /** Multi-select for "Add to kaboodle": a box before each title. */
  selection?: Selection | undefined;
}

export const CELL_CLASS: Partial<Record<TableHeader, string>> = {
  Title: 'kb-col-title',
  Year: 'kb-num',
  Summary: 'kb-col-long',
  Thesis: 'kb-col-long',
  Issue: 'kb-col-long',
  Tags: 'kb-col-tags',
  Actions: 'kb-col-actions',
};

function TitleCell({ d, actions }: { d: VaultDocument; actions: RowActions }) {
  const title = d.title || d.file_name || 'Untitled';
  return (
    <>
      {actions.selection && (
        <input
          type="checkbox"
          className="kb-select-box kb-row-select"
          aria-label={`Select ${title}`}
          checked={actions.selection.has({ type: 'document', id: d.id })}
          onChange={() => actions.selection?.toggle({ type: 'document', id: d.id })}
        />
      )}
      <button
        type="button"
        className="kb-vault-link"
        onClick={() => actions.onOpen(d)}
        title="Open in the browser view"
      >
        {title}
      </button>
      {d.sample && <SampleBadge />}
      {d.corrected_fields && d.corrected_fields.length > 0 && (
        <span className="kb-corrected" title={`Corrected: ${d.corrected_fields.join(', ')}`}>
          ✎
        </span>
      )}
    </>
  );
}

/** One cell of a row, by column. */
export function cell(h: TableHeader, d: VaultDocument, actions: RowActions): ReactNode {
  switch (h) {
    case 'Title':
      return <TitleCell d={d} actions={actions} />;
    case 'Author':
      return d.author;
    case 'Category':
      return d.category;
    case 'Field':
      return d.field;
    case 'Year':
      return d.publication_year ?? '';
    case 'Summary':
      return <Expandable text={d.summary} />;
    case 'Thesis':
      return <Expandable text={d.thesis} />;
    case 'Issue':
      return <Expandable text={d.issue} />;
    case 'Journal/Publisher':
      return d.journal_publisher;
    case 'Influences':
      return d.influenced_by.join(', ');
    case 'Tags':
      return <TagChips tags={d.hashtags} max={3} />;
    case 'Actions':
      return (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => actions.onDownload(d)}
          aria-label={`Download ${d.title || 'document'}`}
        >
          Download
        </Button>
      );
  }
}
