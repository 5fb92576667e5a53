import { Card, CardBody, CardHeader, CardTitle, formatDate, formatDateTime } from '@cartable/ui';
import type { AdminUserDetail } from '../api/users';
import { Field } from './CardParts';

/** Who the member is: names, email and its verification, administrator, two-step, dates. */
export function IdentityCard({ user }: { user: AdminUserDetail['user'] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Identité</CardTitle>
      </CardHeader>
      <CardBody>
        <dl className="grid gap-3 sm:grid-cols-2">
          <Field label="Nom">{user.name}</Field>
          <Field label="Pseudonyme">@{user.username}</Field>
          <Field label="Email">{user.email}</Field>
          <Field label="Email vérifié">{user.email_verified ? 'Oui' : 'Non'}</Field>
          <Field label="Administrateur">{user.is_admin ? 'Oui' : 'Non'}</Field>
          <Field label="Vérification en deux étapes">{user.two_factor_enabled ? 'Activée' : 'Désactivée'}</Field>
          <Field label="Inscrit le">{formatDate(user.created_at)}</Field>
          <Field label="Dernière modification">{formatDateTime(user.updated_at)}</Field>
        </dl>
      </CardBody>
    </Card>
  );
}
