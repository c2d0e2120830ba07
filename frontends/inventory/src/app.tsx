// The inventory remote's routes: /inventory and /inventory/:id. Filled in by the catalogue issue.
import { Link, Route, Routes, useParams } from 'react-router-dom';
import { FeaturePreview } from '@kaboodle/kit';
import type { RemoteAppProps } from '@kaboodle/kit';

function InventoryHome() {
  return (
    <FeaturePreview
      eyebrow="Archive items"
      heading="Inventory"
      description="Photograph your handmade goods and Kaboodle catalogues them: name, description, category, material, colour, dimensions and barcode details, all editable."
      upcoming={[
        'Inventory table with search and category filter (Beads, Stools, Bowls, Fans, Totebags, Home Decor)',
        'Product Images gallery with a detail view',
        'Edit any AI-generated field',
      ]}
      actions={
        <Link className="kb-button" to="/process">
          Add items
        </Link>
      }
    />
  );
}

function InventoryItem() {
  const { id } = useParams();
  return (
    <FeaturePreview
      eyebrow={`Item ${id ?? ''}`}
      heading="Inventory item"
      description="The full record of one item: its images, AI-generated details, related items and recommendations."
      actions={
        <Link className="kb-button kb-button--secondary" to="/inventory">
          Back to Inventory
        </Link>
      }
    />
  );
}

export default function App(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route path="/inventory" element={<InventoryHome />} />
      <Route path="/inventory/:id" element={<InventoryItem />} />
    </Routes>
  );
}
