import { buttonClasses, EmptyState, LockIcon, PageHeader, useDocumentTitle } from '@cartable/ui';
import { Link } from '@cartable/ui/router';

export interface AccessDeniedProps {
  /** The screen's own title, so the member knows which screen refused him. */
  title: string;
  /** The French name of the permission the screen needs; none when only administrators may use it. */
  permission?: string | undefined;
}

/**
 * What a back-office screen shows to a member who may not use it: its name, why, and who can
 * change that. Sending him to the dashboard without a word would look like a broken link.
 */
export function AccessDenied({ title, permission }: AccessDeniedProps) {
  useDocumentTitle(`${title} · Administration`);
  const why = permission
    ? `Cet écran demande la permission « ${permission} », que votre compte n’a pas.`
    : 'Cet écran est réservé aux administrateurs.';
  return (
    <>
      <PageHeader title={title} />
      <EmptyState
        tone="warning"
        icon={<LockIcon size={28} />}
        title="Accès refusé"
        description={`${why} Un administrateur peut vous l’accorder depuis « Gestion des utilisateurs ».`}
        action={
          <Link to="/admin/dashboard" className={buttonClasses('secondary')}>
            Retour au tableau de bord
          </Link>
        }
      />
    </>
  );
}
