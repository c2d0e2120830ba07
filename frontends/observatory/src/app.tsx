// The observatory remote: /observatory, the analysis dashboard over the user's own data.
import { Route, Routes } from 'react-router-dom';
import type { RemoteAppProps } from '@kaboodle/kit';
import { Observatory } from './observatory/observatory.tsx';

export default function App(props: RemoteAppProps) {
  return (
    <Routes>
      <Route path="/observatory" element={<Observatory {...props} />} />
    </Routes>
  );
}
