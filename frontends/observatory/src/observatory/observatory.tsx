// /observatory, "Data Intelligence & Analysis Platform" on the user's own library
// (docs/product.md#observatory, #states, #limits): header, status bar, the carousel (or the welcome view with
// no data, or standby), System Insights and System Diagnostics, and Tick's housing.
import { useEffect, useMemo, useState } from 'react';
import { ClockFace, displayNameOf, MascotWidget, type RemoteAppProps } from '@kaboodle/kit';
import { Carousel, type CarouselView } from './carousel.tsx';
import { ObservatoryHeader } from './observatory-header.tsx';
import { statusLabel, totalsOf, VIEW_TITLES, viewsOf } from './observatory-model.ts';
import { StatusBar } from './status-bar.tsx';
import { SystemDiagnostics, SystemInsights } from './system-panels.tsx';
import { useInsights } from './use-insights.ts';
import { DataArchives } from './views/data-archives.tsx';
import { KnowledgeVault } from './views/knowledge-vault.tsx';
import { StandbyView } from './views/standby-view.tsx';
import { VisualIntelligence } from './views/visual-intelligence.tsx';
import { WelcomeView } from './views/welcome-view.tsx';
import './observatory.css';

/** While the first answer is on its way: an estimate that approaches (never reaches) 100 %. */
function LoadingClock() {
  const [since] = useState(() => Date.now());
  const [now, setNow] = useState(since);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, []);
  return (
    <ClockFace
      percentage={Math.min(95, 100 * (1 - Math.exp(-(now - since) / 800)))}
      label="Loading"
      size={160}
    />
  );
}

export function Observatory({ user }: RemoteAppProps) {
  const [startedAt] = useState(() => Date.now());
  const [active, setActive] = useState(true);
  const { insights, error, refreshing, refresh } = useInsights();
  const totals = insights ? totalsOf(insights) : { total: 0, processed: 0, connections: 0 };

  const views: CarouselView[] = useMemo(() => {
    if (!insights) return [];
    const lib = insights.library;
    const index = insights.diagnostics.index;
    const docsIndexed = index ? Math.max(0, index.entities - lib.inventory_items) : lib.documents;
    return viewsOf(insights).map((id) => ({
      id,
      title: VIEW_TITLES[id],
      render: () =>
        id === 'archives' ? (
          <DataArchives library={lib} />
        ) : id === 'visual' ? (
          <VisualIntelligence library={lib} />
        ) : (
          <KnowledgeVault library={lib} indexed={docsIndexed} />
        ),
    }));
  }, [insights]);

  return (
    <section className="kb-obs" aria-labelledby="kb-obs-heading">
      <ObservatoryHeader
        operator={displayNameOf(user, 'Operator')}
        startedAt={startedAt}
        active={active}
        refreshing={refreshing}
        onRefresh={refresh}
        onActive={setActive}
      />
      <StatusBar totals={totals} status={statusLabel(active, totals)} />
      {error && (
        <p role="alert" className="kb-error-text">
          {error}
        </p>
      )}
      <div className="kb-obs-middle">
        {!insights ? (
          !error && (
            <div className="kb-obs-loading">
              <LoadingClock />
            </div>
          )
        ) : !active ? (
          <StandbyView />
        ) : views.length === 0 ? (
          <WelcomeView />
        ) : (
          <Carousel views={views} />
        )}
        <aside className="kb-obs-mascot" aria-label="Tick">
          <MascotWidget size={130} />
        </aside>
      </div>
      {insights && active && (
        <div className="kb-obs-footer">
          <SystemInsights insights={insights} onChanged={refresh} />
          <SystemDiagnostics insights={insights} />
        </div>
      )}
    </section>
  );
}
