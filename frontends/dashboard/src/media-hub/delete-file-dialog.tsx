// The Media Hub's delete confirmation: what goes with the file, Keep it or Delete file.
import { Button, Dialog } from '@kaboodle/kit';
import type { ServerFile } from '../lib/dashboard-api.ts';

export interface DeleteFileDialogProps {
  file: ServerFile | null;
  busy: boolean;
  onClose: () => void;
  onDelete: (file: ServerFile) => void;
}

export function DeleteFileDialog({ file, busy, onClose, onDelete }: DeleteFileDialogProps) {
  return (
    <Dialog open={file !== null} onClose={onClose} title="Delete this file?" maxWidth={480}>
      {file && (
        <>
          <p>
            “{file.name}” will be deleted with its processing record and whatever was made from it (the
            document or inventory item). This cannot be undone.
          </p>
          <div className="kbd-dialog-actions">
            <Button variant="ghost" onClick={onClose}>
              Keep it
            </Button>
            <Button variant="danger" onClick={() => onDelete(file)} disabled={busy}>
              {busy ? 'Deleting…' : 'Delete file'}
            </Button>
          </div>
        </>
      )}
    </Dialog>
  );
}
