// "Drop or take a photo": a drop zone and a file button in one. On a phone the button opens the
// camera (capture), elsewhere a file chooser; a dropped or chosen JPEG/PNG goes to onPhoto, anything
// else is refused with the product's file messages.
import { useId, useState, type DragEvent } from 'react';

const TYPES = ['image/jpeg', 'image/png'];
const MAX_BYTES = 20 * 1024 * 1024;

export interface PhotoPickerProps {
  onPhoto: (photo: File) => void;
  busy?: boolean;
  label?: string;
  hint?: string;
}

/** Why a file cannot be searched with, in the product's words (docs/product.md#validation), or null. */
export function photoProblem(file: { type: string; size: number }): string | null {
  if (!TYPES.includes(file.type)) return `Unsupported file type: ${file.type || 'unknown'}`;
  if (file.size > MAX_BYTES)
    return `File size exceeds 20MB limit (${(file.size / 1024 / 1024).toFixed(2)}MB)`;
  return null;
}

export function PhotoPicker({
  onPhoto,
  busy = false,
  label = 'Find by photo',
  hint = 'Drop a photo here, or take one',
}: PhotoPickerProps) {
  const inputId = useId();
  const [over, setOver] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const take = (file: File | undefined) => {
    if (!file) return;
    const p = photoProblem(file);
    setProblem(p);
    if (!p) onPhoto(file);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    take(e.dataTransfer.files[0]);
  };
  return (
    <div
      className={`kb-photo-picker${over ? ' is-over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <label htmlFor={inputId} className="kb-button kb-button--secondary kb-button--sm" aria-disabled={busy}>
        {busy ? 'Looking…' : label}
      </label>
      <input
        id={inputId}
        className="kb-visually-hidden"
        type="file"
        accept="image/jpeg,image/png"
        capture="environment"
        disabled={busy}
        onChange={(e) => {
          take(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <span className="kb-photo-picker__hint">{hint}</span>
      {problem && (
        <span className="kb-photo-picker__problem" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}
