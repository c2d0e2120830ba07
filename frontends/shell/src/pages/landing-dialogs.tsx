// The landing page's two dialogs: "Meet Tick" (from the mascot) and "About Kaboodle" (from Explore).
import { Link } from 'react-router-dom';
import { Button, Dialog, TickMascot } from '@kaboodle/kit';

export function MascotDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Meet Tick">
      <div className="kbp-dialog-hero">
        <TickMascot size={120} pose="reading" eyewear="spectacles" />
        <div className="kbp-dialog-text">
          <p>
            <strong>Tick</strong> is Kaboodle’s clockwork archivist: a brass pocket watch with a monocle, a
            bow tie and a very orderly mind. His hands are stopped at ten past ten, which is why he always
            looks pleased to see you.
          </p>
        </div>
      </div>
      <div className="kbp-dialog-text">
        <p>
          Every file you hand him is read, summarised, tagged and shelved. When you search, he goes looking by
          meaning as well as by the exact words, and he tells you how sure he is.
        </p>
      </div>
      <ul className="kbp-facts">
        <li>
          <b>Role</b>Archivist
        </li>
        <li>
          <b>Mechanism</b>Brass, 28-tooth escapement
        </li>
        <li>
          <b>Motto</b>At your service!
        </li>
      </ul>
      <div className="kbp-dialog-actions">
        <Button variant="ghost" onClick={onClose}>
          Back to the landing page
        </Button>
      </div>
    </Dialog>
  );
}

export interface AboutDialogProps {
  open: boolean;
  onClose: () => void;
  onLaunch: () => void;
}

export function AboutDialog({ open, onClose, onLaunch }: AboutDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title="About Kaboodle">
      <div className="kbp-dialog-text">
        <p>
          Kaboodle turns a pile of files into an archive. It extracts and summarises documents, classifies
          them with hashtags and relevancy scores, catalogues physical inventory from photos and barcodes, and
          lets you search everything by meaning or by keyword.
        </p>
        <p>
          Work happens in three partitions: a <strong>rolodex and layout switcher</strong> to choose how you
          look at your collection, a <strong>processing zone</strong> to upload files, paste links and give
          the AI instructions, and a <strong>results table</strong> of organised, searchable records with
          their metadata.
        </p>
      </div>
      <div className="kbp-dialog-actions">
        <Link to="/about" className="kb-button kb-button--ghost kbp-link-button" onClick={onClose}>
          Read the full story
        </Link>
        <Button
          onClick={() => {
            onClose();
            onLaunch();
          }}
        >
          Launch Kaboodle
        </Button>
      </div>
    </Dialog>
  );
}
