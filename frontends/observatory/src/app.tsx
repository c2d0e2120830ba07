// The observatory remote: /observatory, the analysis dashboard over the user's own data.
import { Route, Routes } from 'react-router-dom';
import { FeaturePreview, displayNameOf } from '@kaboodle/kit';
import type { RemoteAppProps } from '@kaboodle/kit';

function Observatory({ user }: RemoteAppProps) {
  return (
    <FeaturePreview
      eyebrow={`Operator: ${displayNameOf(user, 'Operator')}`}
      heading="Data Intelligence & Analysis Platform"
      description="A live view across your archive: totals, what has been processed, connections between documents and items, and the patterns Kaboodle finds in them."
      upcoming={[
        'Status bar with Total Items, Processed and Connections',
        'Carousel of Data Archives, Visual Intelligence and Knowledge Vault',
        'System Insights (trends, near-duplicates, recommendations) and System Diagnostics',
      ]}
    />
  );
}

export default function App(props: RemoteAppProps) {
  return (
    <Routes>
      <Route path="/observatory" element={<Observatory {...props} />} />
    </Routes>
  );
}
