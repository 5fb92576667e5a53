import { BASKET_HOLD_HOURS } from '@cartable/contracts/limits';
import {
  ApiError,
  Button,
  CheckCircleIcon,
  errorMessage,
  formatPrice,
  LoadFailed,
  MapPinIcon,
  MessageIcon,
  Skeleton,
  useSubmissionKey,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { basketsQuery, type ClassListBasket, type ClassListBaskets, useMessageSeller } from './api/class-lists';

type BasketSeller = ClassListBasket['towns'][number]['sellers'][number];

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n > 1 ? many : one}`;
const price = (value: number) => formatPrice(value, { zeroLabel: 'Don' });
/** A sum of zero is no gift: « 0 F CFA ». */
const ZERO = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'XOF', maximumFractionDigits: 0 }).format(0);
const sum = (value: number) => (value === 0 ? ZERO : formatPrice(value));

/** What a seller is asked: the books of the basket they sell, for the list's class. */
export function sellerMessage(seller: BasketSeller, levelName: string) {
  const titles = seller.listings.flatMap((l) => (l.lot_size ? [l.title] : l.items.map((i) => i.name)));
  const quoted = titles.map((t) => `« ${t} »`);
  const named = quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} et ${quoted.at(-1)}` : quoted[0];
  // A swap says what the family gives in return (the seller looks for it).
  const given = seller.listings.flatMap((l) => (l.exchange_for ? [`« ${l.exchange_for.name} »`] : []));
  const swap = given.length
    ? ` Je vous propose en échange ${given.length > 1 ? `${given.slice(0, -1).join(', ')} et ${given.at(-1)}` : given[0]}, que vous recherchez.`
    : '';
  return `Bonjour, je suis intéressé par ${named} pour la liste de ${levelName}.${swap} ${
    titles.length > 1 ? 'Sont-ils' : 'Est-il'
  } toujours disponible${titles.length > 1 ? 's' : ''} ? Où pourrions-nous nous retrouver ?`;
}

/**
 * « Compléter ma liste » on a saved list: three baskets of listings that hold the missing books
 * (the cheapest, the fewest meetings, the best balance of the two), the sellers to meet by town,
 * what stays uncovered, and one prepared message per seller. Nothing is reserved: the seller
 * answers in the conversation.
 */
export function CompleteList({ listId, levelName }: { listId: number; levelName: string }) {
  const id = useId();
  const baskets = useQuery(basketsQuery(listId));
  const [goal, setGoal] = useState<ClassListBasket['goal']>('balanced');

  let body: React.ReactNode;
  if (baskets.isError && !baskets.data) {
    // 409: the saved list has no town yet; the server says what to do.
    body =
      baskets.error instanceof ApiError && baskets.error.status === 409 ? (
        <p className="mt-2 text-sm text-slate-700" data-testid="baskets-no-town">
          {baskets.error.message}
        </p>
      ) : (
        <LoadFailed title="Les paniers n’ont pas pu être composés" query={baskets} className="mt-3" />
      );
  } else if (!baskets.data) {
    body = (
      <div className="mt-3 space-y-2" aria-busy="true">
        <span className="sr-only" role="status">
          Composition des paniers…
        </span>
        <Skeleton className="h-11 w-full rounded-lg" />
        <Skeleton className="h-24 w-full rounded-lg" />
      </div>
    );
  } else if (baskets.data.baskets.length === 0) {
    body = (
      <p className="mt-2 text-sm text-slate-700" data-testid="baskets-empty">
        {baskets.data.missing === 0
          ? 'Vous avez tous les manuels de la liste : rien à compléter.'
          : `Aucun des manuels qui vous manquent n’est proposé à ${baskets.data.city.name} ni dans sa province pour le moment. Vous serez prévenu dès qu’un vendeur en proposera un.`}
      </p>
    );
  } else {
    const chosen = baskets.data.baskets.find((b) => b.goal === goal) ?? baskets.data.baskets[0]!;
    body = (
      <>
        <fieldset className="mt-3 grid grid-cols-3 gap-1.5">
          <legend className="sr-only">Choisir un panier</legend>
          {baskets.data.baskets.map((b) => (
            <button
              key={b.goal}
              type="button"
              aria-pressed={b.goal === chosen.goal}
              onClick={() => setGoal(b.goal)}
              className={`min-h-11 rounded-lg border px-1.5 py-1 text-xs leading-tight font-semibold focus-visible:ring-2 focus-visible:ring-primary-600 focus-visible:outline-none sm:text-sm ${
                b.goal === chosen.goal
                  ? 'border-primary-700 bg-primary-700 text-white'
                  : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50'
              }`}
            >
              {b.label}
              <span className="block font-normal">{sum(b.total)}</span>
            </button>
          ))}
        </fieldset>
        <BasketView basket={chosen} data={baskets.data} levelName={levelName} />
      </>
    );
  }

  return (
    <section
      aria-labelledby={id}
      className="mt-5 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="complete-list"
    >
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        Compléter ma liste
      </h2>
      <p className="text-sm text-slate-600">
        Les annonces à réunir pour avoir les manuels qui vous manquent, près de chez vous.
      </p>
      {body}
    </section>
  );
}

function BasketView({
  basket,
  data,
  levelName,
}: {
  basket: ClassListBasket;
  data: ClassListBaskets;
  levelName: string;
}) {
  const [contacting, setContacting] = useState(false);
  return (
    <div className="mt-3" data-testid="basket" aria-live="polite">
      <p className="text-3xl font-extrabold text-primary-900" data-testid="basket-total">
        {sum(basket.total)}
      </p>
      <p className="text-sm text-slate-800" data-testid="basket-meetings">
        {plural(basket.meetings, 'rendez-vous', 'rendez-vous')} · {plural(basket.towns.length, 'ville')}
      </p>
      {basket.saving > 0 ? (
        <p className="text-sm font-semibold text-primary-800" data-testid="basket-saving">
          Économie : {sum(basket.saving)} par rapport aux prix habituels du site
        </p>
      ) : null}
      {basket.goal === 'balanced' ? (
        <p className="mt-1 text-xs text-slate-600">
          Chaque rendez-vous est compté comme un trajet en taxi : {sum(data.fares.town)} dans votre ville,{' '}
          {sum(data.fares.province)} dans une autre ville de la province.
        </p>
      ) : null}
      {basket.optimal ? null : (
        <p className="mt-1 text-xs text-slate-600">Meilleur panier trouvé dans le temps imparti.</p>
      )}

      {basket.towns.map((town) => (
        <div key={town.city?.id ?? 'none'} className="mt-4">
          <h3 className="flex items-center gap-1 text-sm font-semibold tracking-wide text-slate-700 uppercase">
            <MapPinIcon size={16} /> {town.city?.name ?? 'Ville non précisée'}
          </h3>
          <ul className="mt-2 space-y-2">
            {town.sellers.map((s) => (
              <li key={s.seller.id} className="rounded-lg border border-slate-200 p-3" data-testid="basket-seller">
                <div className="flex items-baseline justify-between gap-2">
                  <span className="font-semibold text-slate-900">{s.seller.name || s.seller.username}</span>
                  <span className="text-sm font-semibold text-slate-800">{sum(s.total)}</span>
                </div>
                <ul className="mt-1 space-y-0.5 text-sm text-slate-700">
                  {s.listings.map((l) => (
                    <li key={l.id}>
                      <div className="flex items-center justify-between gap-2">
                        <Link
                          to={`/books/${l.id}`}
                          className="flex min-h-11 min-w-0 items-center underline-offset-2 hover:underline"
                        >
                          <span className="truncate">
                            {l.title}
                            {l.lot_size ? ` (lot de ${l.lot_size})` : ''}
                          </span>
                        </Link>
                        <span className="shrink-0">{l.exchange_for ? 'Échange' : price(l.price)}</span>
                      </div>
                      {l.exchange_for ? (
                        <p className="pb-1 text-xs break-words text-slate-700" data-testid="basket-swap">
                          Échange : {l.title} contre {l.exchange_for.name}
                        </p>
                      ) : null}
                    </li>
                  ))}
                </ul>
                {contacting ? <SellerMessage seller={s} levelName={levelName} /> : null}
              </li>
            ))}
          </ul>
        </div>
      ))}

      {basket.uncovered.length > 0 ? (
        <div className="mt-4" data-testid="basket-uncovered">
          <h3 className="text-sm font-semibold text-slate-700">
            Pas encore proposés près de chez vous ({basket.uncovered.length})
          </h3>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-slate-700">
            {basket.uncovered.map((i) => (
              <li key={i.id}>{i.name}</li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="mt-4 flex items-center gap-1.5 text-sm font-semibold text-primary-800">
          <CheckCircleIcon size={18} /> Tous les manuels qui vous manquent sont dans ce panier.
        </p>
      )}

      <div className="mt-4">
        {contacting ? (
          <p className="text-xs text-slate-600">
            Relisez chaque message puis envoyez-le. Quand un vendeur vous propose la transaction, son manuel vous est
            réservé {BASKET_HOLD_HOURS} heures ; une fois la transaction confirmée, il est coché sur votre liste.
          </p>
        ) : (
          <Button className="w-full sm:w-auto" onClick={() => setContacting(true)}>
            <MessageIcon size={18} /> Contacter les vendeurs
          </Button>
        )}
      </div>
    </div>
  );
}

/** The prepared message to one seller, editable, sent about their first listing of the basket. */
function SellerMessage({ seller, levelName }: { seller: BasketSeller; levelName: string }) {
  const [content, setContent] = useState(() => sellerMessage(seller, levelName));
  const send = useMessageSeller();
  const submission = useSubmissionKey();
  const bookId = seller.listings[0]!.id;
  const fieldId = useId();
  if (send.isSuccess)
    return (
      <p className="mt-2 text-sm font-semibold text-primary-800" role="status">
        Message envoyé.{' '}
        <Link to={`/messages/${bookId}/${seller.seller.id}`} className="underline underline-offset-2">
          Voir la conversation
        </Link>
      </p>
    );
  return (
    <div className="mt-2">
      <label htmlFor={fieldId} className="text-xs font-semibold text-slate-700">
        Message à {seller.seller.name || seller.seller.username}
      </label>
      <textarea
        id={fieldId}
        value={content}
        onChange={(e) => setContent(e.target.value)}
        rows={3}
        className="mt-1 w-full rounded-lg border border-slate-300 p-2 text-sm"
      />
      {send.isError ? (
        <p className="text-sm text-red-700" role="alert">
          {errorMessage(send.error, 'Erreur lors de l’envoi du message')}
        </p>
      ) : null}
      <Button
        size="sm"
        className="mt-1"
        loading={send.isPending}
        disabled={!content.trim()}
        onClick={() =>
          send.mutate(
            {
              body: { receiver_id: seller.seller.id, book_id: bookId, content: content.trim(), send_email_copy: false },
              key: submission.current(),
            },
            { onSuccess: () => submission.renew() },
          )
        }
      >
        Envoyer
      </Button>
    </div>
  );
}
