import { Alert, Badge, errorMessage, formatDateTime, formatPrice, Skeleton } from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { Link } from '@cartable/ui/router';
import { BOOK_STATUS_LABELS, BOOK_STATUS_TONES, useBook } from './api/books';

/** A listing as the back office sees it (hidden ones too): photos, fields, owner, moderation state. */
export function BookDetailDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const book = useBook(id);
  if (id === null) return null;
  const data = book.data;
  return (
    <Dialog open onClose={onClose} title={data?.title ?? 'Annonce'} size="lg">
      {book.isError ? (
        <Alert tone="error" title="Annonce introuvable">
          {errorMessage(book.error, 'L’annonce n’a pas pu être chargée.')}
        </Alert>
      ) : !data ? (
        <div className="space-y-3" aria-busy="true">
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-6 w-2/3" />
        </div>
      ) : (
        <div className="space-y-4 text-sm" data-testid="book-detail">
          {data.images.length ? (
            <div className="flex gap-2 overflow-x-auto">
              {data.images.map((image) => (
                <img
                  key={image.slot}
                  src={image.thumbnail_url}
                  alt={`${data.title}, vue ${image.slot}`}
                  className="h-32 w-24 shrink-0 rounded-lg object-cover"
                />
              ))}
            </div>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Badge tone={BOOK_STATUS_TONES[data.status]}>{BOOK_STATUS_LABELS[data.status]}</Badge>
            {data.hidden ? <Badge tone="danger">Masquée</Badge> : null}
          </div>
          {data.hidden ? (
            <Alert tone="warning" title="Masquée par la modération">
              {data.hidden_reason}
              {data.hidden_at ? ` (le ${formatDateTime(data.hidden_at)})` : ''}
            </Alert>
          ) : null}
          <dl className="grid grid-cols-[8rem_minmax(0,1fr)] gap-x-3 gap-y-2">
            <dt className="text-slate-500">Auteur</dt>
            <dd>{data.author}</dd>
            {data.isbn ? (
              <>
                <dt className="text-slate-500">ISBN</dt>
                <dd>{data.isbn}</dd>
              </>
            ) : null}
            <dt className="text-slate-500">Prix</dt>
            <dd>{formatPrice(data.price, { zeroLabel: 'Don' })}</dd>
            <dt className="text-slate-500">État</dt>
            <dd>{data.condition_label}</dd>
            <dt className="text-slate-500">Ville</dt>
            <dd>{data.city?.name ?? '—'}</dd>
            <dt className="text-slate-500">Catégories</dt>
            <dd>{data.categories.map((c) => c.name).join(', ') || '—'}</dd>
            <dt className="text-slate-500">Propriétaire</dt>
            <dd>
              <Link to={`/admin/users/${data.user_id}`} className="text-primary-700 hover:underline">
                {data.owner?.name ?? 'Membre'}
              </Link>
              {data.owner?.email ? <span className="text-slate-500"> · {data.owner.email}</span> : null}
            </dd>
            <dt className="text-slate-500">Vues</dt>
            <dd>{data.views.toLocaleString('fr-FR')}</dd>
            <dt className="text-slate-500">Publiée le</dt>
            <dd>{formatDateTime(data.created_at)}</dd>
          </dl>
          {data.description ? <p className="whitespace-pre-line text-slate-700">{data.description}</p> : null}
          <a
            href={`/books/${data.id}`}
            target="_blank"
            rel="noreferrer"
            className="inline-block text-primary-700 hover:underline"
          >
            Voir la page publique (nouvel onglet)
          </a>
        </div>
      )}
    </Dialog>
  );
}
