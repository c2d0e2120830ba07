// The dashboard's first paint (before any answer): the spec's header, badge, four cards and metric
// labels, with the "Digital Archivist" fallback when the user has no name.
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import DashboardHome from './dashboard-home.tsx';

const render = (user: Parameters<typeof DashboardHome>[0]['user']) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <DashboardHome user={user} openHelp={() => undefined} />
    </MemoryRouter>,
  );

describe('Dashboard', () => {
  it('welcomes the user by name, else as "Digital Archivist", with the "System Active & Ready" badge', () => {
    expect(render({ id: '1', email: 'ada@example.com', name: 'Ada Lovelace', role: 'user' })).toContain(
      'Welcome, <span class="kbd-welcome__name">Ada Lovelace</span>',
    );
    const anonymous = render(null);
    expect(anonymous).toContain('Digital Archivist');
    expect(anonymous).toContain('System Active &amp; Ready');
    expect(anonymous).toMatch(/<h1[^>]*>Dashboard<\/h1>/);
  });

  it('links the four cards where the spec says, Guidance Portal as a button', () => {
    const html = render(null);
    expect(html).toMatch(/href="\/process"[^>]*>.*Process Intelligence/);
    expect(html).toMatch(/href="\/inventory"[^>]*>.*Archive Vault/);
    expect(html).toMatch(/href="\/documents"[^>]*>.*Document Library/);
    expect(html).toMatch(/<button type="button"[^>]*>.*Guidance Portal/);
    for (const label of [
      'Documents Processed',
      'Archive Items',
      'Processing Efficiency',
      'Storage Utilized',
    ]) {
      expect(html).toContain(`aria-label="${label}"`);
    }
    expect(html).toContain('Recent Activity');
  });
});
