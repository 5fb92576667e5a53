import './standalone.css';
import { AppToaster, Container, initSession } from '@cartable/ui';
import { BrowserRouter, Link } from '@cartable/ui/router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';
import CatalogRoutes from './routes';

/** The catalog alone (http://localhost:3001), with a bare frame instead of the shell's layout. */
void initSession();
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
const container = document.getElementById('root');
if (container) {
  createRoot(container).render(
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <header className="border-b border-slate-200 bg-white">
          <Container className="flex h-12 items-center gap-4 text-sm">
            <strong className="text-primary-700">Catalogue (remote seul)</strong>
            <Link to="/">Accueil</Link>
            <Link to="/books">Manuels</Link>
          </Container>
        </header>
        <CatalogRoutes />
      </BrowserRouter>
      <AppToaster />
    </QueryClientProvider>,
  );
}
