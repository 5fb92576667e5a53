import type { CatalogStats } from '@cartable/contracts';
import { Card, CardBody, CardHeader, CardTitle, Skeleton } from '@cartable/ui';
import { Link } from '@cartable/ui/router';

const whole = new Intl.NumberFormat('fr-FR');

/**
 * « Ce qui manque avant la rentrée »: the books of the latest official lists that families look
 * for (missing from their saved lists, exchange wishes, searches without result) against the
 * listings available; what to ask sellers for.
 */
export function Shortages({ items, error }: { items: CatalogStats['shortages'] | undefined; error: boolean }) {
  return (
    <Card data-testid="shortages">
      <CardHeader>
        <CardTitle>Ce qui manque avant la rentrée</CardTitle>
      </CardHeader>
      <CardBody>
        {!items ? (
          <div className="space-y-2">
            {[0, 1, 2].map((n) => (
              <Skeleton key={n} className="h-10 w-full" />
            ))}
          </div>
        ) : items.length === 0 ? (
          <p className="text-sm text-slate-500">
            {error
              ? 'Chiffres indisponibles pour le moment.'
              : 'Aucune demande des familles sur les listes officielles pour l’instant.'}
          </p>
        ) : (
          <>
            <p className="mb-3 text-sm text-slate-600">
              Manuels des listes officielles {items[0]!.school_year} les plus recherchés et les moins proposés.
            </p>
            <ol className="divide-y divide-slate-100">
              {items.map((s) => (
                <li key={s.item_id} className="flex items-start justify-between gap-3 py-2 text-sm">
                  <span className="min-w-0">
                    <span className="block font-medium text-slate-900">{s.title}</span>
                    <span className="text-slate-600">
                      {s.level} · {whole.format(s.wanted)} famille{s.wanted > 1 ? 's' : ''} en attente
                      {s.searched
                        ? ` · ${whole.format(s.searched)} recherche${s.searched > 1 ? 's' : ''} sans résultat`
                        : ''}
                    </span>
                  </span>
                  <span
                    className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ${
                      s.available === 0 ? 'bg-rose-100 text-rose-800' : 'bg-amber-100 text-amber-900'
                    }`}
                  >
                    {s.available === 0
                      ? 'Aucune annonce'
                      : `${whole.format(s.available)} annonce${s.available > 1 ? 's' : ''}`}
                  </span>
                </li>
              ))}
            </ol>
            <Link
              to="/admin/class-lists"
              className="tap-target mt-2 inline-flex text-sm text-primary-700 hover:underline"
            >
              Listes de manuels
            </Link>
          </>
        )}
      </CardBody>
    </Card>
  );
}
