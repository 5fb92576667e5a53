import type { BookConditionFlag } from '@cartable/contracts';
import { bookConditionFlags, conditionFlagLabels } from '@cartable/contracts/labels';
import { Checkbox } from '@cartable/ui';
import type { UseFormRegisterReturn } from 'react-hook-form';

/** What a buyer of school books asks beyond the condition: one box each, none ticked by default. */
export function ConditionFlagFields({ registration }: { registration: UseFormRegisterReturn<'condition_flags'> }) {
  return (
    <fieldset className="space-y-1" data-testid="condition-flag-fields">
      <legend className="text-sm font-medium text-slate-800">Précisions sur l’état</legend>
      <p className="text-xs text-slate-500">
        Cochez ce qui s’applique : l’acheteur le voit sur l’annonce et peut chercher des manuels sans.
      </p>
      <div className="grid gap-x-4 sm:grid-cols-2">
        {bookConditionFlags.map((flag) => (
          <Checkbox key={flag} label={conditionFlagLabels[flag]} value={flag} {...registration} />
        ))}
      </div>
    </fieldset>
  );
}

/** A page to photograph for each flag ticked: the photo shows how much it matters. */
const photoToTake: Record<BookConditionFlag, string> = {
  annotated: 'une page annotée ou surlignée',
  filled_in: 'une page d’exercices remplie',
  stamped: 'le tampon',
  pages_missing: 'l’endroit où des pages manquent',
  cover_damaged: 'la couverture abîmée',
};

/** The photo section's advice: the usual pages, then one per flag ticked. */
export function PhotoGuidance({ flags }: { flags: BookConditionFlag[] }) {
  const extra = bookConditionFlags.filter((flag) => flags.includes(flag)).map((flag) => photoToTake[flag]);
  return (
    <div className="rounded-lg bg-ocean-50 p-3 text-sm text-ocean-900" data-testid="photo-guidance">
      <p>Photographiez la couverture, la page de garde et une page intérieure : l’acheteur voit l’état réel.</p>
      {extra.length ? <p className="mt-1">Vous avez signalé des défauts : montrez aussi {joinFrench(extra)}.</p> : null}
    </div>
  );
}

/** « a », « a et b », « a, b et c ». */
function joinFrench(parts: string[]): string {
  return parts.length < 2 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} et ${parts.at(-1)}`;
}
