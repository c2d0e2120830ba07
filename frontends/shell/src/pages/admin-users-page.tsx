// /admin/users (docs/product.md#profile-settings-and-admin): the user list for admins (GET
// /api/auth/admin/users). The server decides who is an admin; anyone else sees the 403 text
// (docs/product.md#messages).
import { useEffect, useState } from 'react';
import { API_MESSAGES, Banner, Button, Table, isApiError, type TableColumn } from '@kaboodle/kit';
import { OrnamentalFrame, TickMascot } from '@kaboodle/kit';
import { accountApi, errorText, formatWhen, type AdminUserRow } from './account-api.ts';
import './pages.css';

const COLUMNS: TableColumn<AdminUserRow>[] = [
  { key: 'email', header: 'Email', sortValue: (u) => u.email },
  { key: 'name', header: 'Name', sortValue: (u) => u.name, render: (u) => u.name || '—' },
  {
    key: 'role',
    header: 'Role',
    sortValue: (u) => u.role,
    render: (u) => (
      <span className="kbp-role" data-role={u.role}>
        {u.role === 'admin' ? 'Admin' : 'User'}
      </span>
    ),
  },
  {
    key: 'created_at',
    header: 'Created',
    sortValue: (u) => u.created_at ?? '',
    render: (u) => <span className="kbp-nowrap">{formatWhen(u.created_at, '—')}</span>,
  },
  {
    key: 'last_login_at',
    header: 'Last sign-in',
    sortValue: (u) => u.last_login_at ?? '',
    render: (u) => <span className="kbp-nowrap">{formatWhen(u.last_login_at)}</span>,
  },
];

type State =
  | { kind: 'loading' }
  | { kind: 'denied' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; users: AdminUserRow[] };

export default function AdminUsersPage() {
  const [state, setState] = useState<State>({ kind: 'loading' });

  const load = async () => {
    setState({ kind: 'loading' });
    try {
      setState({ kind: 'ready', users: await accountApi.listUsers() });
    } catch (err) {
      if (isApiError(err) && err.status === 403) setState({ kind: 'denied' });
      else setState({ kind: 'error', message: errorText(err, 'Loading the users failed.') });
    }
  };
  useEffect(() => {
    void load();
  }, []);

  return (
    <div className="kbp-account" style={{ maxWidth: 1100 }}>
      <header>
        <p className="kb-eyebrow">Administration</p>
        <h1>Users</h1>
      </header>
      {state.kind === 'loading' && (
        <p className="kbp-muted" role="status">
          Loading users…
        </p>
      )}
      {state.kind === 'denied' && (
        <OrnamentalFrame as="section" className="kbp-card" aria-label="Access denied">
          <div className="kbp-denied">
            <TickMascot size={90} pose="idle" title="" />
            <Banner tone="error">{API_MESSAGES.forbidden}</Banner>
          </div>
        </OrnamentalFrame>
      )}
      {state.kind === 'error' && (
        <Banner tone="error">
          {state.message}{' '}
          <Button size="sm" variant="ghost" onClick={() => void load()}>
            Try again
          </Button>
        </Banner>
      )}
      {state.kind === 'ready' && (
        <>
          <p className="kbp-muted">
            {state.users.length} {state.users.length === 1 ? 'account' : 'accounts'}. Admins see the list of
            users, never their documents.
          </p>
          <Table
            caption="Registered users"
            columns={COLUMNS}
            rows={state.users}
            rowKey={(u) => u.id}
            emptyText="No users yet."
          />
        </>
      )}
    </div>
  );
}
