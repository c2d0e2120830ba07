// The vault's trends: hashtag and category lines over the weeks or months, opened on demand so the
// table stays first on the page (and the chart library loads only when asked for).
import { useState } from 'react';
import { Button, TrendsPanel } from '@kaboodle/kit';

export function VaultTrends() {
  const [open, setOpen] = useState(false);
  return (
    <div className="kb-vault__trends">
      <Button variant="ghost" size="sm" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {open ? 'Hide trends' : 'Show trends'}
      </Button>
      {open && (
        <div className="kb-frame kb-vault__trends-panel">
          <TrendsPanel title="Hashtag and category trends" />
        </div>
      )}
    </div>
  );
}
