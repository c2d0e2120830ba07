// The dashboard remote's routes. The shell mounts this for /dashboard, /home, /process, /upload, /media-hub
// and /activity (the Processing Hub answers at both /process and /upload: docs/product.md#processing-hub).
import { Route, Routes } from 'react-router-dom';
import type { RemoteAppProps } from '@kaboodle/kit';
import ActivityPage from './activity/activity-page.tsx';
import DashboardHome from './dashboard/dashboard-home.tsx';
import MediaHub from './media-hub/media-hub.tsx';
import ProcessingHub from './processing/processing-hub.tsx';
// The remote's styles, shared first, then each screen's: the order is the cascade's (ties go to the later).
import './dashboard.css';
import './dashboard/home.css';
import './processing/processing.css';
import './media-hub/media-hub.css';

export default function App(props: RemoteAppProps) {
  return (
    <Routes>
      <Route path="/dashboard" element={<DashboardHome {...props} />} />
      <Route path="/home" element={<DashboardHome {...props} />} />
      <Route path="/process" element={<ProcessingHub />} />
      <Route path="/upload" element={<ProcessingHub />} />
      <Route path="/media-hub" element={<MediaHub />} />
      <Route path="/activity" element={<ActivityPage />} />
    </Routes>
  );
}
