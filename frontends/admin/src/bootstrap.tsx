import './standalone.css';
import { AppToaster, initSession } from '@cartable/ui';
import { BrowserRouter, Navigate, useLocation } from '@cartable/ui/router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';
import AdminApp from './App';

/**
 * The back office alone (http://localhost:3002/admin), for development. It needs an admin session
 * in this origin's localStorage (`token`, `user`); the simplest path is usually the shell's dev
 * server (http://localhost:3000/admin), which proxies this remote.
 */
function Standalone() {
  const { pathname } = useLocation();
  return pathname.startsWith('/admin') ? <AdminApp /> : <Navigate to="/admin/dashboard" replace />;
}

void initSession();
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
const container = document.getElementById('root');
if (container) {
  createRoot(container).render(
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <Standalone />
      </BrowserRouter>
      <AppToaster />
    </QueryClientProvider>,
  );
}
