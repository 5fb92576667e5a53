import { Button } from '@cartable/ui';
import { plural } from './publication';

/** The counts the bar shows: books picked, and of those, published and failed. */
interface Progress {
  /** Sold as one lot (then `done` and `failed` are 0: the lot is one listing). */
  asLot: boolean;
  running: boolean;
  selected: number;
  done: number;
  failed: number;
  /** The lot's last attempt failed. */
  lotFailed: boolean;
}

function submitLabel({ asLot, running, selected, done, failed, lotFailed }: Progress) {
  if (running) return 'Publication en cours…';
  if (asLot) {
    if (lotFailed) return 'Réessayer de publier le lot';
    return selected >= 2 ? `Publier le lot de ${selected} manuels` : 'Publier le lot';
  }
  if (failed > 0) return `Réessayer ${failed > 1 ? `les ${failed} annonces en échec` : 'l’annonce en échec'}`;
  if (done > 0) return 'Publier les suivantes';
  return `Publier ${selected > 1 ? `les ${selected} annonces` : selected === 1 ? 'l’annonce' : ''}`;
}

/** The bar kept at the bottom of the screen: what is picked, the publication's progress, the button. */
export function SellBar(progress: Progress) {
  const { asLot, running, selected, done, failed } = progress;
  return (
    <div className="sticky bottom-0 -mx-4 mt-4 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border">
      <div aria-live="polite" className="text-sm text-slate-700" data-testid="sell-progress">
        {asLot ? (
          selected === 0 ? (
            'Cochez les manuels du lot.'
          ) : (
            `${plural(selected, 'manuel', 'manuels')} dans le lot`
          )
        ) : running || done > 0 || failed > 0 ? (
          <>
            <progress
              className="mb-1 h-2 w-full accent-primary-700"
              max={selected}
              value={done}
              aria-label="Annonces publiées"
            />
            {`${done} sur ${selected} publiée${done > 1 ? 's' : ''}`}
            {failed > 0 && !running ? ` · ${failed} en échec` : ''}
          </>
        ) : selected === 0 ? (
          'Cochez au moins un manuel.'
        ) : (
          `${plural(selected, 'manuel choisi', 'manuels choisis')}`
        )}
      </div>
      <Button type="submit" size="lg" fullWidth className="mt-2" loading={running} disabled={selected === 0}>
        {submitLabel(progress)}
      </Button>
    </div>
  );
}
