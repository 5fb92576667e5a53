import type { ReactNode } from 'react';
import { LayersIcon } from '../icons';
import { EmptyState } from './EmptyState';

export interface ComingSoonProps {
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
}

/** Placeholder for a screen that a later iteration delivers ("Écran en préparation"). */
export function ComingSoon({ title, description, action }: ComingSoonProps) {
  return (
    <EmptyState
      icon={<LayersIcon size={26} />}
      title={title}
      description={description ?? 'Écran en préparation : il sera disponible très bientôt.'}
      action={action}
    />
  );
}
