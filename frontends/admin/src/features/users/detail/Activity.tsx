import { Card, CardBody, CardHeader, CardTitle, formatDateTime } from '@cartable/ui';
import type { AdminUserDetail } from '../api/users';
import { Field } from './CardParts';

/** The member's figures (listings, conversations, comments…) and recent activity. */
export function Activity({ detail }: { detail: AdminUserDetail }) {
  const s = detail.stats;
  const figures: Array<[string, number]> = [
    ['Annonces', s.books_total],
    ['Disponibles', s.books_available],
    ['Vendues', s.books_sold],
    ['Conversations', s.conversations],
    ['Messages reçus', s.messages_received],
    ['Commentaires', s.comments],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Activité</CardTitle>
      </CardHeader>
      <CardBody className="space-y-4">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          {figures.map(([label, value]) => (
            <Field key={label} label={label}>
              <span className="text-lg font-semibold">{value.toLocaleString('fr-FR')}</span>
            </Field>
          ))}
        </dl>
        {detail.activities.length === 0 ? (
          <p className="text-sm text-slate-500">Aucune activité récente.</p>
        ) : (
          <ul className="space-y-1 text-sm" aria-label="Activité récente">
            {detail.activities.map((a) => (
              <li key={a.id} className="flex flex-wrap justify-between gap-2">
                <span className="text-slate-800">{a.title}</span>
                <span className="text-xs text-slate-500">{formatDateTime(a.occurred_at)}</span>
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}
