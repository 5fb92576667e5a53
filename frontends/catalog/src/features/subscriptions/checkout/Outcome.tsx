import { Button, cn } from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import type { ReactNode } from 'react';

/** How the checkout ended (declared, confirmed, failed), with the way to the subscription. */
export function Outcome({
  icon,
  tone,
  title,
  text,
  subscriptionId,
  linkLabel = 'Voir l’abonnement',
  onClose,
}: {
  icon: ReactNode;
  tone: 'primary' | 'ocean' | 'danger';
  title: string;
  text: string;
  subscriptionId: string;
  /** The link to the subscription's page, named for what the member does there. */
  linkLabel?: string;
  onClose: () => void;
}) {
  const tones = {
    primary: 'bg-primary-100 text-primary-800',
    ocean: 'bg-ocean-100 text-ocean-800',
    danger: 'bg-red-100 text-red-800',
  };
  return (
    <div className="pb-5 text-center" role="status">
      <span className={cn('mx-auto flex h-14 w-14 items-center justify-center rounded-full', tones[tone])}>{icon}</span>
      <p className="mt-3 text-lg font-semibold text-slate-900">{title}</p>
      <p className="mt-1 text-sm text-slate-700">{text}</p>
      <div className="mt-5 grid gap-2 sm:grid-cols-2">
        <Link
          to={`/subscription/details/${subscriptionId}`}
          className="inline-flex h-11 items-center justify-center rounded-lg bg-primary-700 px-4 text-sm font-semibold text-white hover:bg-primary-800"
          onClick={onClose}
        >
          {linkLabel}
        </Link>
        <Button variant="outline" onClick={onClose}>
          Fermer
        </Button>
      </div>
    </div>
  );
}
