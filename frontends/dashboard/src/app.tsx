// The dashboard remote's routes. The shell mounts this for /dashboard, /home, /process, /upload
// and /media-hub; the screens fill in with the catalogue and ingestion issues.
import { Link, Route, Routes } from 'react-router-dom';
import { Button, FeaturePreview, displayNameOf, type RemoteAppProps } from '@kaboodle/kit';

function DashboardHome({ user, openHelp }: RemoteAppProps) {
  return (
    <FeaturePreview
      eyebrow={`Welcome, ${displayNameOf(user, 'Digital Archivist')}`}
      heading="Dashboard"
      description={
        <>
          <p>
            <span className="kb-badge">System Active &amp; Ready</span>
          </p>
          <p>
            Your command deck for everything Kaboodle has read for you: how many documents Tick has processed,
            how many archive items you catalogue, how efficiently files get through processing and how much
            storage they use, with your latest activity alongside.
          </p>
        </>
      }
      upcoming={[
        'Documents Processed, Archive Items, Processing Efficiency and Storage Utilized, from your own data',
        'Recent Activity: files uploaded, processed, failed and added to a kaboodle',
        'Shortcuts to Process Intelligence, Archive Vault, Document Library and the Guidance Portal',
      ]}
      actions={
        <>
          <Link className="kb-button" to="/process">
            Process files
          </Link>
          <Link className="kb-button kb-button--secondary" to="/documents">
            Document Library
          </Link>
          <Button variant="ghost" onClick={openHelp}>
            Guidance Portal
          </Button>
        </>
      }
    />
  );
}

function ProcessingHub() {
  return (
    <FeaturePreview
      eyebrow="Processing zone"
      heading="Processing Hub"
      description="Drop in PDFs, Word files, text and photos (up to 20 MB each) or paste a link, choose where the results go, and add your own instructions for the AI. Files are processed one at a time with live progress."
      upcoming={[
        'File queue with status, progress, previews, Retry and Clear Completed',
        'Destination per batch: Auto, Document or Inventory item',
        'Custom AI instructions sent with each file',
      ]}
    />
  );
}

function MediaHub() {
  return (
    <FeaturePreview
      eyebrow="Your files"
      heading="Media Hub"
      description="Every file you have uploaded in one place: preview, type, size, processing status and result, with download, delete and reprocess."
      upcoming={[
        'Previews for images and documents',
        'Download, delete and reprocess',
        'Filter by type and status',
      ]}
    />
  );
}

export default function App(props: RemoteAppProps) {
  return (
    <Routes>
      <Route path="/dashboard" element={<DashboardHome {...props} />} />
      <Route path="/home" element={<DashboardHome {...props} />} />
      <Route path="/process" element={<ProcessingHub />} />
      <Route path="/upload" element={<ProcessingHub />} />
      <Route path="/media-hub" element={<MediaHub />} />
    </Routes>
  );
}
