import { Alert, hasPermission, PageHeader, useDocumentTitle, useSession } from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { permissionLabel } from '../../entities/role/labels';
import { MENU, mayUse } from '../../shared/menu';
import { Overview } from './components/Overview';
import { SubscriptionFigures } from './components/SubscriptionFigures';

/** The last 30 days (the services' default period). */
const LAST_30_DAYS = {};

/**
 * The back office's first screen: the figures of the last 30 days for holders of reports.view
 * (admins hold it), then shortcuts to the screens the viewer may open.
 */
export default function DashboardPage() {
  useDocumentTitle('Tableau de bord · Administration');
  const { user } = useSession();
  // Shortcuts lead only where the viewer may work, unlike the menu, which the spec fixes.
  const shortcuts = MENU.filter((entry) => entry.path !== 'dashboard' && mayUse(entry, user));
  const figures = hasPermission('reports.view', user);
  return (
    <>
      <PageHeader
        title="Tableau de bord"
        description={figures ? 'Les 30 derniers jours sur Cartable.' : 'Vos accès au back-office Cartable.'}
        actions={
          figures ? (
            <Link
              to="/admin/reports"
              className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:border-primary-300"
            >
              Rapports détaillés
            </Link>
          ) : undefined
        }
      />
      {figures ? (
        <>
          <Overview period={LAST_30_DAYS} against="vs 30 jours précédents" />
          <SubscriptionFigures />
        </>
      ) : (
        <Alert tone="info" title="Chiffres réservés">
          Les chiffres du tableau de bord demandent la permission « {permissionLabel('reports.view')} ». Vos écrans sont
          ci-dessous.
        </Alert>
      )}
      <section aria-labelledby="raccourcis" className="mt-8">
        <h2 id="raccourcis" className="text-lg font-semibold text-slate-900">
          Accès rapides
        </h2>
        <ul className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {shortcuts.map(({ path, label, Icon }) => (
            <li key={path}>
              <Link
                to={`/admin/${path}`}
                className="flex h-full items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 text-sm font-medium text-slate-800 shadow-sm hover:border-primary-300 hover:text-primary-800"
              >
                <Icon size={18} className="text-primary-700" />
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
