import {
  Badge,
  BookIcon,
  Button,
  CheckCircleIcon,
  ClockIcon,
  errorMessage,
  formatPrice,
  LazyConfirmDialog,
  MapPinIcon,
  MessageIcon,
  notify,
  RefreshIcon,
  SwapIcon,
  useSession,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useMemo, useState } from 'react';
import { type ExchangeLeg, type ExchangeOverview, type ExchangeSuggestion, useAnswerSuggestion } from './api/exchanges';
import { Section } from './ExchangeSection';

/** The exchanges suggested to the member: each a pair or a cycle of members, with what each gives and gets. */
export function Suggestions({ data }: { data: ExchangeOverview }) {
  const shown = data.suggestions.filter((s) => s.status === 'open' || s.status === 'accepted');
  return (
    <Section title="Échanges proposés" count={shown.length}>
      {shown.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-700">
          <p className="font-semibold text-slate-900">Aucune proposition pour le moment</p>
          <p className="mt-1">
            {data.offers.length === 0
              ? 'Ouvrez au moins un de vos manuels à l’échange, et dites ce que vous cherchez : '
              : data.wishes.length === 0
                ? 'Dites ce que vous cherchez : '
                : 'Nous cherchons régulièrement des familles de votre ville ou de votre province : '}
            dès qu’une famille a ce qu’il vous faut et cherche ce que vous proposez, l’échange apparaît ici et vous êtes
            prévenu.
          </p>
        </div>
      ) : (
        <ul className="space-y-4" data-testid="exchange-suggestions">
          {shown.map((s) => (
            <li key={s.id}>
              <SuggestionCard suggestion={s} />
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** The legs from the viewer's point of view: what they give first, then around the loop. */
export function orderLegs(legs: ExchangeLeg[], me: string | undefined): ExchangeLeg[] {
  const first = legs.find((l) => l.from.id === me) ?? legs[0];
  if (!first) return [];
  const ordered = [first];
  while (ordered.length < legs.length) {
    const last = ordered[ordered.length - 1] as ExchangeLeg;
    const next = legs.find((l) => !ordered.includes(l) && l.from.id === last.to.id);
    if (!next) break;
    ordered.push(next);
  }
  return ordered.length === legs.length ? ordered : [first, ...legs.filter((l) => l !== first)];
}

export function SuggestionCard({ suggestion }: { suggestion: ExchangeSuggestion }) {
  const { user } = useSession();
  const me = user?.id ? String(user.id) : undefined;
  const answer = useAnswerSuggestion();
  const [declining, setDeclining] = useState(false);
  const legs = orderLegs(suggestion.legs, me);
  const members = useMemo(() => {
    const seen = new Map<string, string>();
    for (const leg of legs) seen.set(leg.from.id, leg.from.name);
    return [...seen.entries()];
  }, [legs]);
  const cycle = suggestion.kind === 'cycle';
  const accepted = suggestion.status === 'accepted';
  const titleId = `exchange-${suggestion.id}`;
  const who = (id: string, name: string) => (id === me ? 'Vous' : name);

  const respond = (kind: 'accept' | 'decline') =>
    answer.mutate(
      { id: suggestion.id, answer: kind },
      {
        onSuccess: (res) => {
          setDeclining(false);
          void notify.success(res.message);
        },
        onError: (error) => {
          setDeclining(false);
          void notify.error(errorMessage(error, 'Votre réponse n’a pas pu être enregistrée. Réessayez.'));
        },
      },
    );

  return (
    <article
      aria-labelledby={titleId}
      data-testid="exchange-suggestion"
      className={`rounded-xl border bg-white p-4 shadow-sm ${accepted ? 'border-primary-300' : 'border-slate-200'}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={cycle ? 'accent' : 'ocean'}>
          <SwapIcon size={12} /> {cycle ? 'Échange à trois' : 'Échange à deux'}
        </Badge>
        <span className="inline-flex items-center gap-1 text-sm text-slate-700">
          <MapPinIcon size={14} /> {suggestion.area}
        </span>
        <Badge tone={accepted ? 'success' : 'neutral'} className="ml-auto">
          {suggestion.status_label}
        </Badge>
      </div>
      <h3 id={titleId} className="sr-only">
        {legs.map((l) => `${who(l.from.id, l.from.name)} donne « ${l.book.title} »`).join(', ')}
      </h3>

      <ol className="mt-3 space-y-2" aria-label={cycle ? 'La boucle de l’échange' : 'Les deux côtés de l’échange'}>
        {legs.map((leg, index) => (
          <li key={`${leg.book.id}-${leg.to.id}`}>
            <LegLine leg={leg} me={me} />
            {cycle && index < legs.length - 1 ? (
              <span aria-hidden="true" className="ml-5 block h-3 border-l-2 border-dashed border-accent-300" />
            ) : null}
          </li>
        ))}
      </ol>
      {cycle ? (
        <p className="mt-2 flex items-center gap-1.5 text-xs text-slate-600">
          <RefreshIcon size={14} className="shrink-0" /> La boucle se referme : chacun donne un manuel et en reçoit un.
        </p>
      ) : null}

      <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label="Réponses" data-testid="exchange-answers">
        {members.map(([id, name]) => {
          const yes = suggestion.accepted_by.includes(id);
          return (
            <li key={id} className={`inline-flex items-center gap-1 ${yes ? 'text-primary-800' : 'text-slate-600'}`}>
              {yes ? <CheckCircleIcon size={16} /> : <ClockIcon size={16} />}
              {id === me
                ? yes
                  ? 'Vous avez accepté'
                  : 'Votre réponse est attendue'
                : `${name} ${yes ? 'a accepté' : 'n’a pas encore répondu'}`}
            </li>
          );
        })}
      </ul>

      {accepted ? (
        <div className="mt-3 rounded-lg bg-primary-50 p-3 text-sm text-primary-900">
          <p className="font-semibold">Tout le monde a accepté : organisez la remise.</p>
          <ul className="mt-2 space-y-2">
            {legs
              .filter((l) => l.conversation_url && (l.from.id === me || l.to.id === me))
              .map((l) => {
                const other = l.from.id === me ? l.to : l.from;
                return (
                  <li key={`${l.book.id}-${l.to.id}`}>
                    <Link
                      to={l.conversation_url as string}
                      className="flex min-h-12 items-center gap-3 rounded-lg border border-primary-200 bg-white px-3 py-2 hover:bg-primary-50 focus-visible:ring-2 focus-visible:ring-primary-600 focus-visible:outline-none"
                      data-testid="exchange-conversation"
                    >
                      <MessageIcon size={18} className="shrink-0 text-primary-700" />
                      <span className="min-w-0">
                        <span className="block font-semibold text-primary-800">Écrire à {other.name}</span>
                        <span className="block text-xs text-slate-700">à propos de « {l.book.title} »</span>
                      </span>
                    </Link>
                  </li>
                );
              })}
          </ul>
        </div>
      ) : suggestion.my_answer === 'accepted' ? (
        <p className="mt-3 text-sm text-slate-700">
          Vous avez accepté. Nous vous prévenons dès que{' '}
          {cycle ? 'les autres familles acceptent' : 'l’autre famille accepte'}.
        </p>
      ) : suggestion.status === 'open' ? (
        <div className="mt-4 grid grid-cols-2 gap-2">
          <Button
            loading={answer.isPending && answer.variables?.answer === 'accept'}
            disabled={answer.isPending}
            onClick={() => respond('accept')}
          >
            Accepter
          </Button>
          <Button variant="outline" disabled={answer.isPending} onClick={() => setDeclining(true)}>
            Refuser
          </Button>
        </div>
      ) : null}

      {declining ? (
        <LazyConfirmDialog
          open
          title="Refuser cet échange ?"
          description="Cette proposition disparaîtra : elle ne vous sera plus proposée."
          confirmLabel="Refuser"
          loading={answer.isPending}
          onCancel={() => setDeclining(false)}
          onConfirm={() => respond('decline')}
        />
      ) : null}
    </article>
  );
}

export function LegLine({ leg, me }: { leg: ExchangeLeg; me: string | undefined }) {
  const giving = leg.from.id === me;
  const receiving = leg.to.id === me;
  const sentence = giving ? (
    <>
      Vous donnez <strong>« {leg.book.title} »</strong> à {leg.to.name}
    </>
  ) : receiving ? (
    <>
      Vous recevez <strong>« {leg.book.title} »</strong> de {leg.from.name}
    </>
  ) : (
    <>
      {leg.from.name} donne <strong>« {leg.book.title} »</strong> à {leg.to.name}
    </>
  );
  return (
    <div
      className={`flex items-start gap-3 rounded-lg border p-3 ${giving ? 'border-accent-200 bg-accent-50' : receiving ? 'border-primary-200 bg-primary-50' : 'border-slate-200 bg-slate-50'}`}
      data-testid="exchange-leg"
    >
      {leg.book.thumbnail ? (
        <img
          src={leg.book.thumbnail}
          alt=""
          loading="lazy"
          decoding="async"
          width={40}
          height={52}
          className="h-13 w-10 shrink-0 rounded bg-slate-100 object-cover"
        />
      ) : (
        <span aria-hidden="true" className="flex h-13 w-10 shrink-0 items-center justify-center rounded bg-white">
          <BookIcon size={18} className="text-primary-300" />
        </span>
      )}
      <div className="min-w-0 text-sm text-slate-800">
        <p>{sentence}</p>
        <p className="mt-0.5 text-xs text-slate-600">
          {leg.book.condition_label} ·{' '}
          {leg.book.price === 0 ? 'proposé en don' : `annoncé ${formatPrice(leg.book.price)}`}
          {receiving ? ` · vous cherchiez : ${leg.wish}` : ''}
        </p>
        <Link
          to={`/books/${leg.book.id}`}
          className="inline-flex min-h-11 items-center text-sm font-semibold text-primary-700 underline-offset-2 hover:underline"
        >
          Voir l’annonce<span className="sr-only"> « {leg.book.title} »</span>
        </Link>
      </div>
    </div>
  );
}
