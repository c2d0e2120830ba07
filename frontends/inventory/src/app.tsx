// The inventory remote's routes: /inventory (table and Product Images) and /inventory/:id (the item).
import { Route, Routes } from 'react-router-dom';
import type { RemoteAppProps } from '@kaboodle/kit';
import { ItemPage } from './item/item-page.tsx';
import { InventoryHome } from './list/inventory-home.tsx';
// The stylesheets in cascade order: rules of equal specificity in a later one win.
import './inventory.css';
import './list/list.css';
import './item/item.css';

export default function App(props: RemoteAppProps) {
  return (
    <Routes>
      <Route path="/inventory" element={<InventoryHome {...props} />} />
      <Route path="/inventory/:id" element={<ItemPage />} />
    </Routes>
  );
}
