// The drag-and-drop zone with the file picker inside it: drop files anywhere on it, or press the
// button (keyboard included) to open the picker with the spec's extensions.
import { useId, useRef, useState, type DragEvent } from 'react';
import { Button, DecoIcon } from '@kaboodle/kit';
import { ACCEPT } from './file-rules.ts';

export function DropZone({
  onFiles,
  disabled = false,
}: {
  onFiles: (files: File[]) => void;
  disabled?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [active, setActive] = useState(false);
  // dragenter/dragleave fire for every child: count them so the highlight does not flicker.
  const depth = useRef(0);

  const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');

  return (
    <div
      className="kbd-drop"
      data-active={active}
      data-testid="drop-zone"
      onClick={(e) => {
        if (e.target === e.currentTarget) input.current?.click();
      }}
      onDragEnter={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        depth.current++;
        setActive(true);
      }}
      onDragOver={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setActive(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        depth.current = 0;
        setActive(false);
        const files = Array.from(e.dataTransfer?.files ?? []);
        if (files.length > 0) onFiles(files);
      }}
    >
      <span className="kbd-drop__icon" aria-hidden="true">
        <DecoIcon name="upload" size={40} />
      </span>
      <span className="kbd-drop__title">Drag and drop files here</span>
      <span id={hintId} className="kbd-muted kbd-small">
        PDF, JPG, JPEG, PNG, TXT, DOC or DOCX, up to 20MB each
      </span>
      <Button
        variant="secondary"
        onClick={() => input.current?.click()}
        disabled={disabled}
        aria-describedby={hintId}
      >
        Choose files
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPT}
        aria-label="Choose files to process"
        tabIndex={-1}
        data-testid="file-input"
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          // Reset so picking the same file again (after removing it) still fires a change.
          e.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </div>
  );
}
