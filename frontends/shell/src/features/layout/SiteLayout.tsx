import { ErrorBoundary, PageSpinner } from '@cartable/ui';
import { Outlet, useLocation } from '@cartable/ui/router';
import { type ReactNode, Suspense, useEffect } from 'react';
import { Footer } from './Footer';
import { Header } from './Header';
import { OfflineBanner } from './OfflineBanner';
import { PendingWrites } from './PendingWrites';

/** Scrolls to the top on a new page (not on hash links). */
function ScrollToTop() {
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change only
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

/** A conversation's thread: on a phone it fills the screen under the header, like a messaging app. */
const THREAD = /^\/messages\/[^/]+\/[^/]+\/?$/;

/** Public site frame: header, page, footer. Renders `children`, or the matched child route. */
export function SiteLayout({ children }: { children?: ReactNode }) {
  const { pathname } = useLocation();
  // No site footer under a thread on a phone: scrolling past the composer led nowhere useful.
  const footer = THREAD.test(pathname) ? (
    <div className="hidden lg:block">
      <Footer />
    </div>
  ) : (
    <Footer />
  );
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#contenu"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:shadow"
      >
        Aller au contenu
      </a>
      <ScrollToTop />
      <Header />
      <OfflineBanner />
      <PendingWrites />
      {/*
        At least the screen under the header (h-16): the footer starts below the fold, so the
        page arriving (a remote, its data) never pushes a footer the reader already sees (CLS).
      */}
      <main id="contenu" className="min-h-[calc(100dvh-4rem)] flex-1">
        <ErrorBoundary resetKey={pathname}>
          <Suspense fallback={<PageSpinner />}>{children ?? <Outlet />}</Suspense>
        </ErrorBoundary>
      </main>
      {footer}
    </div>
  );
}
