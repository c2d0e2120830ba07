// The dashboard's welcome header and its four clickable cards (docs/product.md#dashboard).
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { DecoIcon, Gears, type DecoIconName } from '@kaboodle/kit';

export function WelcomeHeader({ name }: { name: string }) {
  return (
    <header className="kbd-welcome kb-frame">
      <div className="kbd-welcome__bg" aria-hidden="true" />
      <div className="kbd-welcome__text">
        <p className="kb-eyebrow">Command deck</p>
        <h1 id="kbd-dashboard-title">Dashboard</h1>
        <p className="kbd-welcome__greeting" data-testid="welcome-name">
          Welcome, <span className="kbd-welcome__name">{name}</span>
        </p>
        <p>
          <span className="kb-badge">System Active &amp; Ready</span>
        </p>
      </div>
      <span className="kbd-welcome__art" aria-hidden="true">
        <Gears size={150} speed={24} />
      </span>
    </header>
  );
}

interface CardProps {
  icon: DecoIconName;
  title: string;
  text: string;
  to?: string;
  onClick?: () => void;
}

function NavCard({ icon, title, text, to, onClick }: CardProps) {
  const body: ReactNode = (
    <>
      <span className="kbd-card__icon" aria-hidden="true">
        <DecoIcon name={icon} size={24} />
      </span>
      <span className="kbd-card__title">{title}</span>
      <span className="kbd-card__text">{text}</span>
      <span className="kbd-card__go" aria-hidden="true">
        {to ? 'Open →' : 'Show me →'}
      </span>
    </>
  );
  return to ? (
    <Link to={to} className="kbd-card kb-frame" data-testid="dashboard-card">
      {body}
    </Link>
  ) : (
    <button type="button" className="kbd-card kb-frame" onClick={onClick} data-testid="dashboard-card">
      {body}
    </button>
  );
}

export function NavCards({ openHelp }: { openHelp?: () => void }) {
  return (
    <nav aria-label="Dashboard shortcuts" className="kbd-cards">
      <NavCard
        icon="prism"
        title="Process Intelligence"
        text="Upload files or paste links; Tick reads, summarises and tags them."
        to="/process"
      />
      <NavCard
        icon="crate"
        title="Archive Vault"
        text="Your catalogued inventory: photos, materials, prices and barcodes."
        to="/inventory"
      />
      <NavCard
        icon="book"
        title="Document Library"
        text="Every processed document: table, grid, graph and reader views."
        to="/documents"
      />
      <NavCard
        icon="compass"
        title="Guidance Portal"
        text="How to use Kaboodle, step by step."
        onClick={openHelp}
      />
    </nav>
  );
}
