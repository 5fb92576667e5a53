import { AppToaster, CrashFallback, ErrorBoundary } from '@cartable/ui';
import { BrowserRouter } from '@cartable/ui/router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { InactivityMonitor } from '../features/session/InactivityMonitor';
import { AppRoutes } from './routes';

/** One query client for the shell and the remotes (react-query is a shared singleton). */
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 60_000,
      gcTime: 15 * 60_000,
      retry: 1,
      // Mobile data is precious: no refetch just because the tab regained focus.
      refetchOnWindowFocus: false,
    },
  },
});

export function App() {
  return (
    <ErrorBoundary fallback={() => <CrashFallback />}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <AppRoutes />
          <InactivityMonitor />
        </BrowserRouter>
        <AppToaster />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
