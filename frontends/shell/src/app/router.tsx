// Every route of docs/product.md#screens. Remote families are pathless layouts: the shell decides who may see
// a path, the remote's ./App (with absolute <Routes>) decides what it shows.
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router-dom';
import AuthCallbackScreen from '../auth/auth-callback-screen.tsx';
import { page, type PageName } from './page-loader.tsx';
import { RemoteMount, type RemoteName } from './remote-mount.tsx';
import { RouteError } from './route-error.tsx';
import { HomeRoute, ProtectedRoute, PublicRoute } from './route-guards.tsx';
import { ShellActionsProvider } from './shell-actions.tsx';

function Root() {
  return (
    <ShellActionsProvider>
      <Outlet />
    </ShellActionsProvider>
  );
}

function pageRoute(path: string, name: PageName): RouteObject {
  const Page = page(name);
  return { path, element: <Page /> };
}

function remoteRoutes(name: RemoteName, paths: string[]): RouteObject {
  return { element: <RemoteMount name={name} />, children: paths.map((path) => ({ path })) };
}

export const REMOTE_PATHS: Record<RemoteName, string[]> = {
  dashboard: ['/dashboard', '/home', '/process', '/upload', '/media-hub', '/activity'],
  vault: ['/documents', '/search', '/kaboodles', '/kaboodles/:id'],
  inventory: ['/inventory', '/inventory/:id'],
  observatory: ['/observatory'],
};

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <HomeRoute /> },
      { path: '/auth-callback', element: <AuthCallbackScreen /> },
      {
        element: <PublicRoute />,
        children: [
          pageRoute('/about', 'about-page'),
          pageRoute('/resources', 'resources-page'),
          pageRoute('/terms', 'terms-page'),
          pageRoute('/test-clockwork', 'test-clockwork-page'),
          // opened from links in account email, signed in or not
          pageRoute('/verify-email', 'verify-email-page'),
          pageRoute('/reset-password', 'reset-password-page'),
          pageRoute('*', 'not-found-page'),
        ],
      },
      {
        element: <ProtectedRoute />,
        children: [
          remoteRoutes('dashboard', REMOTE_PATHS.dashboard),
          remoteRoutes('vault', REMOTE_PATHS.vault),
          remoteRoutes('inventory', REMOTE_PATHS.inventory),
          remoteRoutes('observatory', REMOTE_PATHS.observatory),
          pageRoute('/profile', 'profile-page'),
          pageRoute('/settings', 'settings-page'),
          pageRoute('/admin/users', 'admin-users-page'),
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
