import { type SchoolSeason, schoolSeasonOf } from '@cartable/contracts/school-year';
import type { ReactNode } from 'react';
import { cn } from '../cn';

const SEASONS: Array<{ season: SchoolSeason; months: string; name: string }> = [
  { season: 'vendre', months: 'Juin – juillet', name: 'Vendre' },
  { season: 'acheter', months: 'Août – octobre', name: 'Acheter' },
  { season: 'garder', months: 'Novembre – mai', name: 'Garder' },
];

const NOW: Record<SchoolSeason, { title: string; text: string }> = {
  vendre: {
    title: 'C’est le moment de vendre',
    text: 'Les familles préparent la rentrée. Mettez en vente les manuels dont votre enfant n’aura plus besoin : ceux qui figurent encore sur les listes de l’an prochain partent vite.',
  },
  acheter: {
    title: 'C’est la rentrée : complétez la liste',
    text: 'Trouvez les manuels de la liste de votre enfant avant que les librairies ne soient en rupture, au meilleur prix près de chez vous.',
  },
  garder: {
    title: 'L’année scolaire est en cours',
    text: 'Gardez les manuels en bon état : couverts et sans annotations, ils se revendront mieux en juin.',
  },
};

/**
 * « Le calendrier de l'année scolaire »: what a family does now (sell in June and July, buy from
 * August to October, keep the books in good shape the rest of the year), the three seasons with
 * the current one marked, and the caller's links for this season.
 */
export function SchoolYearCard({
  now = new Date(),
  children,
  className,
}: {
  now?: Date;
  /** The links that fit this season (« Ajouter un manuel », « Ma liste »…). */
  children?: (season: SchoolSeason) => ReactNode;
  className?: string;
}) {
  const season = schoolSeasonOf(now);
  const { title, text } = NOW[season];
  return (
    <section
      aria-labelledby="annee-scolaire"
      className={cn('rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5', className)}
    >
      <p className="text-xs font-semibold tracking-wide text-primary-700 uppercase">Calendrier de l’année scolaire</p>
      <h2 id="annee-scolaire" className="mt-1 text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{text}</p>
      <ol className="mt-4 grid grid-cols-3 gap-2 text-center text-xs">
        {SEASONS.map((s) => (
          <li
            key={s.season}
            aria-current={s.season === season ? 'step' : undefined}
            className={cn(
              'rounded-lg border px-1 py-2',
              s.season === season
                ? 'border-primary-600 bg-primary-50 font-semibold text-primary-900'
                : 'border-slate-200 text-slate-600',
            )}
          >
            <span className="block">{s.name}</span>
            <span className="block font-normal">{s.months}</span>
          </li>
        ))}
      </ol>
      {children ? <div className="mt-4 flex flex-wrap gap-2">{children(season)}</div> : null}
    </section>
  );
}
