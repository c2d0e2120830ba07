// The "How to Use Kaboodle" dialog, opened from the footer, the user menu and the dashboard.
import { Dialog } from '@kaboodle/kit';
import { HELP_TOPICS, WORKFLOW_PARTS } from './help-topics.ts';

export default function HelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="How to Use Kaboodle" maxWidth={640} className="kb-help">
      <p className="kb-help__intro">
        Kaboodle reads, summarises and organises your documents and inventory. Three parts work together:
      </p>
      <ol className="kb-help__workflow">
        {WORKFLOW_PARTS.map((part) => (
          <li key={part}>{part}</li>
        ))}
      </ol>
      <hr className="kb-rule" />
      <ul className="kb-help__topics">
        {HELP_TOPICS.map((topic) => (
          <li key={topic.title}>
            <span className="kb-help__icon" aria-hidden="true">
              {topic.icon}
            </span>
            <div>
              <h3>{topic.title}</h3>
              <p>{topic.text}</p>
            </div>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
