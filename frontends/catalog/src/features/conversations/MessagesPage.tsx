import {
  Alert,
  Avatar,
  Button,
  buttonClasses,
  Container,
  cn,
  EmptyState,
  errorMessage,
  MessageIcon,
  PageHeader,
  RefreshIcon,
  Skeleton,
  useDocumentTitle,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { BookCover } from '../../entities/book/BookCard';
import { truncate } from '../../shared/books';
import { usePageVisible } from '../../shared/hooks';
import { type Conversation, conversationsQuery } from './api/conversations';
import { useLiveConversations } from './api/live';
import { relativeTime } from './dates';

/** The member's conversations, newest first (GET /api/messages). */
export default function MessagesPage() {
  useDocumentTitle('Messages');
  const visible = usePageVisible();
  // Updated by the live stream while it is open; otherwise the header badge's rhythm (SPEC section 9: 30 s).
  const live = useLiveConversations();
  const list = useQuery(conversationsQuery(visible && !live));
  const conversations = list.data;
  const unread = conversations?.reduce((sum, c) => sum + Math.max(c.unread_count, 0), 0) ?? 0;

  return (
    <Container className="max-w-3xl py-6 sm:py-10">
      <PageHeader
        title="Messages"
        description={
          conversations && conversations.length > 0
            ? unread > 0
              ? `${unread} message${unread > 1 ? 's' : ''} non lu${unread > 1 ? 's' : ''}`
              : 'Vos échanges avec les vendeurs et les acheteurs.'
            : undefined
        }
      />

      {list.isPending ? (
        <ConversationSkeletons />
      ) : list.isError && !conversations ? (
        <Alert tone="error" title="Impossible de charger vos conversations">
          <p>{errorMessage(list.error, 'Vérifiez votre connexion puis réessayez.')}</p>
          <Button
            className="mt-3"
            size="sm"
            variant="outline"
            leftIcon={<RefreshIcon size={16} />}
            loading={list.isFetching}
            onClick={() => void list.refetch()}
          >
            Réessayer
          </Button>
        </Alert>
      ) : conversations && conversations.length === 0 ? (
        <EmptyState
          icon={<MessageIcon size={28} />}
          title="Aucune conversation pour l'instant"
          description="Trouvez un manuel et contactez son vendeur : vos échanges apparaîtront ici."
          action={
            <Link to="/books" className={buttonClasses('primary')}>
              Parcourir les manuels
            </Link>
          }
        />
      ) : (
        <ul
          aria-label="Conversations"
          className="divide-y divide-slate-100 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm"
        >
          {conversations?.map((conversation) => (
            <li key={`${conversation.book?.id ?? 'x'}-${conversation.other_user.id}-${conversation.id}`}>
              <ConversationRow conversation={conversation} />
            </li>
          ))}
        </ul>
      )}
    </Container>
  );
}

function ConversationRow({ conversation }: { conversation: Conversation }) {
  const { book, other_user: other, last_message: last, unread_count: unreadCount } = conversation;
  const unread = unreadCount > 0;
  const bookId = book?.id ?? last?.book_id;
  const href = `/messages/${bookId}/${other.id}`;
  const when = last?.created_at ?? conversation.updated_at;
  const preview = last ? `${last.is_mine ? 'Vous : ' : ''}${last.content.replace(/\s+/g, ' ').trim()}` : '';
  // The link is named by what it shows (WCAG 2.5.3), with « Conversation avec » for screen readers.
  return (
    <Link
      to={href}
      className={cn(
        'flex items-center gap-3 px-3 py-3 transition-colors hover:bg-slate-50 focus-visible:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ocean-500 sm:gap-4 sm:px-4',
        unread && 'bg-primary-50/60',
      )}
    >
      <div className="relative shrink-0">
        <BookCover src={book?.thumbnail} alt="" className="h-16 w-12 rounded-md" />
        <span aria-hidden="true">
          <Avatar
            name={other.name}
            image={other.profile_image}
            size="sm"
            className="absolute -right-2 -bottom-2 ring-2 ring-white"
          />
        </span>
      </div>
      <div className="min-w-0 flex-1 pl-1">
        <div className="flex items-baseline justify-between gap-2">
          <p className={cn('truncate text-slate-900', unread ? 'font-bold' : 'font-medium')}>
            <span className="sr-only">Conversation avec </span>
            {other.name}
          </p>
          {when ? (
            <time
              dateTime={when}
              className={cn('shrink-0 text-xs', unread ? 'font-semibold text-primary-700' : 'text-slate-500')}
            >
              {relativeTime(when)}
            </time>
          ) : null}
        </div>
        <p className="truncate text-xs text-slate-500">{book ? truncate(book.title, 60) : 'Annonce supprimée'}</p>
        <div className="mt-0.5 flex items-center justify-between gap-2">
          <p className={cn('truncate text-sm', unread ? 'font-semibold text-slate-900' : 'text-slate-600')}>
            {truncate(preview, 90)}
          </p>
          {unread ? (
            <span
              aria-hidden="true"
              className="flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-red-600 px-1.5 text-[11px] leading-none font-bold text-white"
            >
              {unreadCount > 99 ? '99+' : unreadCount}
            </span>
          ) : null}
          {unread ? <span className="sr-only">{`, ${unreadCount} non lu${unreadCount > 1 ? 's' : ''}`}</span> : null}
        </div>
      </div>
    </Link>
  );
}

function ConversationSkeletons() {
  return (
    <div
      className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white"
      data-testid="messages-loading"
    >
      <span className="sr-only" role="status">
        Chargement des conversations…
      </span>
      {Array.from({ length: 5 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <div key={i} className="flex items-center gap-4 px-4 py-3">
          <Skeleton className="h-16 w-12 shrink-0" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-3 w-1/2" />
            <Skeleton className="h-3 w-3/4" />
          </div>
        </div>
      ))}
    </div>
  );
}
