// The Processing Hub's choices sent with each file: the AI instructions (with their character count) and
// the destination (Auto, Document, Inventory item).
import { useId } from 'react';
import { MAX_INSTRUCTIONS, type Destination } from '../lib/dashboard-api.ts';
import type { ProcessingOptions } from './use-processing-options.ts';

export const DESTINATION_CHOICES: { value: Destination; label: string }[] = [
  { value: 'auto', label: 'Auto' },
  { value: 'document', label: 'Document' },
  { value: 'inventory', label: 'Inventory item' },
];

const DESTINATION_HINTS: Record<Destination, string> = {
  auto: 'Auto: images become inventory items, everything else becomes a document.',
  document: 'Every file is read and filed in the Document Library.',
  inventory: 'Every file becomes a catalogued inventory item.',
};

export function InstructionsField({ options }: { options: ProcessingOptions }) {
  const ids = { instructions: useId(), count: useId() };
  const { instructions, tooLong } = options;
  return (
    <div className="kb-field">
      <label htmlFor={ids.instructions}>Customise AI instructions</label>
      <textarea
        id={ids.instructions}
        rows={4}
        value={instructions}
        placeholder="e.g. Focus on obligations and deadlines; tag every party named."
        aria-describedby={ids.count}
        aria-invalid={tooLong}
        onChange={(e) => options.setInstructions(e.target.value)}
      />
      <span id={ids.count} className="kbd-field-hint" data-over={tooLong} aria-live="polite">
        {instructions.length} / {MAX_INSTRUCTIONS} characters · sent with each file
      </span>
    </div>
  );
}

export function DestinationField({ options }: { options: ProcessingOptions }) {
  return (
    <fieldset className="kbd-dest">
      <legend>Destination</legend>
      <div className="kbd-segmented">
        {DESTINATION_CHOICES.map((c) => (
          <label key={c.value}>
            <input
              type="radio"
              name="destination"
              value={c.value}
              checked={options.destination === c.value}
              onChange={() => options.setDestination(c.value)}
            />
            <span>{c.label}</span>
          </label>
        ))}
      </div>
      <span className="kbd-field-hint">{DESTINATION_HINTS[options.destination]}</span>
    </fieldset>
  );
}
