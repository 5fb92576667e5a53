import type { Review } from '@cartable/contracts';
import {
  ApiError,
  Avatar,
  buttonClasses,
  CalendarIcon,
  Card,
  CardBody,
  ClockIcon,
  Container,
  cn,
  EmptyState,
  formatDate,
  HandshakeIcon,
  LoadFailed,
  MapPinIcon,
  PageSpinner,
  Pagination,
  StarIcon,
  UserIcon,
  useCities,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { Link, useParams, useSearchParams } from '@cartable/ui/router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { BookGrid } from '../../entities/book/BookCard';
import { BlockButton } from '../../entities/report/BlockButton';
import { ReportButton } from '../../entities/report/ReportButton';
import { SellerBadge } from '../../shared/components/SellerBadge';

import {
  memberBooksQuery,
  memberDealsQuery,
  memberQuery,
  memberRatingsQuery,
  memberReplyTimeQuery,
} from './api/members';

/**
 * /profile/{userId}: a member as everyone sees them, visitors included (a comment's author link,
 * a conversation, a deal): name, photo, city, member since, rating and reviews, deals completed,
 * typical reply time, and their listings (the public catalogue's rules). A deactivated or unknown
 * member: « Profil introuvable ».
 */
export default function MemberProfilePage() {
  const { userId = '' } = useParams();
  const { user: me } = useSession();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const member = useQuery(memberQuery(userId));
  const found = member.isSuccess;
  const books = useQuery({ ...memberBooksQuery(userId, page), enabled: found, placeholderData: keepPreviousData });
  const deals = useQuery({ ...memberDealsQuery(userId), enabled: found });
  const ratings = useQuery({ ...memberRatingsQuery(userId), enabled: found });
  const replyTime = useQuery({ ...memberReplyTimeQuery(userId), enabled: found });
  useDocumentTitle(member.data ? member.data.name : 'Profil');

  if (member.isPending) return <PageSpinner label="Chargement du profil…" />;
  if (member.isError) {
    const notFound = member.error instanceof ApiError && [404, 422].includes(member.error.status);
    return (
      <Container className="max-w-2xl py-10 sm:py-16">
        {notFound ? (
          <EmptyState
            icon={<UserIcon size={26} />}
            tone="warning"
            title="Profil introuvable"
            description="Ce membre n’existe pas, a supprimé son compte ou a été désactivé."
            action={
              <Link to="/books" className={buttonClasses('primary')}>
                Parcourir les manuels
              </Link>
            }
          />
        ) : (
          <LoadFailed title="Impossible de charger ce profil." query={member} />
        )}
      </Container>
    );
  }

  const profile = member.data;
  const summary = ratings.data?.summary;
  return (
    <Container className="max-w-5xl space-y-6 py-8 sm:py-10">
      <Card className="overflow-hidden">
        <div className="h-20 bg-linear-to-r from-primary-600 via-accent-400 to-ocean-500 sm:h-24" />
        <CardBody className="-mt-12 space-y-4">
          <div className="flex flex-col items-center gap-3 text-center sm:flex-row sm:items-end sm:text-left">
            <Avatar
              name={profile.name}
              image={profile.profile_image}
              alt={profile.name}
              size={null}
              className="h-24 w-24 text-2xl shadow ring-4 ring-white"
            />
            <div className="min-w-0 flex-1 sm:pb-1">
              <h1 className="text-2xl font-bold break-words text-slate-900">{profile.name}</h1>
              <p className="text-sm text-slate-600">@{profile.username}</p>
              <SellerBadge badge={deals.data?.badge} className="mt-1" />
            </div>
            {me?.id === profile.id ? (
              <Link to="/profile" className={buttonClasses('outline', 'sm')}>
                Modifier mon profil
              </Link>
            ) : (
              <div className="flex flex-wrap justify-center gap-1">
                <ReportButton target={{ type: 'user', id: profile.id }} />
                <BlockButton userId={profile.id} name={profile.name} />
              </div>
            )}
          </div>
          <ul className="flex flex-wrap justify-center gap-x-5 gap-y-2 text-sm text-slate-700 sm:justify-start">
            <City countryId={profile.country_id} cityId={profile.city_id} />
            <li className="flex items-center gap-1.5">
              <CalendarIcon size={16} />
              Membre depuis le {formatDate(profile.created_at)}
            </li>
            {summary && summary.count > 0 ? (
              <li className="flex items-center gap-1.5" data-testid="member-rating">
                <StarIcon size={16} className="text-accent-500" />
                {summary.average.toFixed(1).replace('.', ',')}/5 ({summary.count} avis)
              </li>
            ) : null}
            {deals.data ? (
              <li className="flex items-center gap-1.5" data-testid="member-deals">
                <HandshakeIcon size={16} />
                {deals.data.deals_completed === 0
                  ? 'Aucune transaction conclue'
                  : `${deals.data.deals_completed} transaction${deals.data.deals_completed > 1 ? 's' : ''} conclue${deals.data.deals_completed > 1 ? 's' : ''}`}
              </li>
            ) : null}
            {replyTime.data?.label ? (
              <li className="flex items-center gap-1.5" data-testid="member-reply-time">
                <ClockIcon size={16} />
                {replyTime.data.label.charAt(0).toUpperCase() + replyTime.data.label.slice(1)}
              </li>
            ) : null}
          </ul>
          {profile.bio?.trim() ? <p className="text-sm whitespace-pre-line text-slate-800">{profile.bio}</p> : null}
        </CardBody>
      </Card>

      <section aria-labelledby="annonces" className="space-y-4">
        <h2 id="annonces" className="text-xl font-bold text-slate-900">
          Annonces de {profile.name}
          {books.data ? <span className="ml-2 text-base font-normal text-slate-500">({books.data.total})</span> : null}
        </h2>
        {books.isError ? (
          <LoadFailed title="Impossible de charger ses annonces." query={books} />
        ) : books.data && books.data.data.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
            Aucune annonce disponible pour le moment.
          </p>
        ) : (
          <>
            <BookGrid books={books.data?.data} loading={books.isPending} count={4} />
            {books.data && books.data.last_page > 1 ? (
              <Pagination
                page={page}
                lastPage={books.data.last_page}
                onPage={(next) => setParams({ page: String(next) })}
              />
            ) : null}
          </>
        )}
      </section>

      <section aria-labelledby="avis" className="space-y-4">
        <h2 id="avis" className="text-xl font-bold text-slate-900">
          Avis reçus
        </h2>
        {ratings.isPending ? (
          <p className="text-sm text-slate-600">Chargement des avis…</p>
        ) : ratings.isError ? (
          <p className="text-sm text-slate-600">Les avis ne sont pas disponibles pour le moment.</p>
        ) : ratings.data.data.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
            Ce membre n’a pas encore reçu d’avis.
          </p>
        ) : (
          <ul className="space-y-3">
            {ratings.data.data.map((review) => (
              <ReviewItem key={review.id} review={review} />
            ))}
          </ul>
        )}
      </section>
    </Container>
  );
}

function Stars({ value }: { value: number }) {
  return (
    <span className="flex items-center" role="img" aria-label={`${value} sur 5`}>
      {[1, 2, 3, 4, 5].map((n) => (
        <StarIcon key={n} size={16} className={cn(n <= value ? 'fill-current text-accent-500' : 'text-slate-300')} />
      ))}
    </span>
  );
}

function ReviewItem({ review }: { review: Review }) {
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Link to={`/profile/${review.from_user.id}`} className="font-semibold text-slate-900 hover:underline">
          {review.from_user.name}
        </Link>
        <Stars value={review.rating} />
        <span className="text-xs text-slate-500">{formatDate(review.created_at)}</span>
      </div>
      <p className="mt-2 text-sm break-words whitespace-pre-line text-slate-800">{review.comment}</p>
      <p className="mt-1 text-xs text-slate-500">À propos de « {review.transaction.book.title} »</p>
    </li>
  );
}

/** « Libreville » from the cached reference list of the member's country. */
function City({ countryId, cityId }: { countryId: number | null; cityId: number | null }) {
  const cities = useCities(countryId);
  const city = cities.data?.find((entry) => entry.id === cityId)?.name;
  if (!city) return null;
  return (
    <li className="flex items-center gap-1.5">
      <MapPinIcon size={16} />
      {city}
    </li>
  );
}
