import { countDataUsage, formatBytes, formatDataCost, startPageCount, useDataSaver, useDataUsage } from '@cartable/ui';
import { Link, useLocation } from '@cartable/ui/router';
import { useEffect, useRef } from 'react';

/**
 * What this page moved over the network and what it cost at the member's price of a gigabyte, in
 * the footer: « Cette page : 48 Ko, environ 0,13 FCFA ». The count starts again on each page.
 */
export function PageDataCost() {
  const { pathname } = useLocation();
  const { page } = useDataUsage();
  const { enabled, pricePerGb } = useDataSaver();

  // The first page counts from the document's own request; each later one from its navigation.
  const counted = useRef(pathname);
  useEffect(() => countDataUsage(), []);
  useEffect(() => {
    if (counted.current === pathname) return;
    counted.current = pathname;
    startPageCount();
  }, [pathname]);

  return (
    <p data-testid="page-data-cost">
      Cette page : {formatBytes(page)}, environ {formatDataCost(page, pricePerGb)} ·{' '}
      <Link to="/profile#donnees" className="underline underline-offset-2 hover:text-accent-300">
        Économie de données {enabled ? 'activée' : 'désactivée'}
      </Link>
    </p>
  );
}
