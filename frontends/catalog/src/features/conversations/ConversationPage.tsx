import {
  Alert,
  ApiError,
  Button,
  buttonClasses,
  EmptyState,
  errorMessage,
  HandshakeIcon,
  isNotFound,
  MessageIcon,
  RefreshIcon,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { Link, useParams } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ConcludeDialog } from '../../entities/transaction/LazyConcludeDialog';
import { bookQuery } from '../../shared/api/books';
import { sameId } from '../../shared/books';
import { usePageVisible } from '../../shared/hooks';

import { useLiveConversations } from './api/live';
import { Composer } from './thread/Composer';
import { MessageList, ThreadSkeleton } from './thread/MessageList';
import { SafetyTips } from './thread/SafetyTips';
import { ThreadFrame } from './thread/ThreadFrame';
import { ThreadHeader } from './thread/ThreadHeader';
import { useReadReceipts } from './thread/useReadReceipts';
import { useScrollAnchor } from './thread/useScrollAnchor';
import { useIsSelf, useThread } from './thread/useThread';

/**
 * /messages/:bookId/:userId: one book, two members. The screen puts together the thread's data
 * (thread/useThread: pages with useInfiniteQuery), its read receipts, its scrolling and the composer.
 */
export default function ConversationPage() {
  const { bookId = '', userId = '' } = useParams();
  if (useIsSelf(userId)) {
    return (
      <ThreadFrame>
        <div className="p-4">
          <EmptyState
            tone="warning"
            icon={<MessageIcon size={28} />}
            title="Vous ne pouvez pas vous écrire"
            description="Une conversation réunit deux membres autour d'un manuel."
            action={
              <Link to="/messages" className={buttonClasses('primary')}>
                Mes messages
              </Link>
            }
          />
        </div>
      </ThreadFrame>
    );
  }
  return <Thread key={`${bookId}/${userId}`} bookId={bookId} userId={userId} />;
}

function Thread({ bookId, userId }: { bookId: string; userId: string }) {
  const visible = usePageVisible();
  // New messages and receipts come by the live stream while it is open; polled (5 s) otherwise.
  const live = useLiveConversations();
  const liveId = useId();
  const { thread, newest, messages, bookInfo, other, loadingHeader, hasOlder } = useThread(
    bookId,
    userId,
    visible && !live,
  );
  const otherName = other?.name ?? 'ce membre';
  useDocumentTitle(other ? `Conversation avec ${other.name}` : 'Conversation');
  const announcement = useReadReceipts(bookId, userId, newest, otherName);
  const { scrollRef, onScroll, stickToBottom } = useScrollAnchor(messages);

  const error = thread.error;
  const forbidden = error instanceof ApiError && error.status === 403;
  // A wrong id in the address (404, or 400/422 for one that cannot name a conversation).
  const missing = isNotFound(error);

  return (
    <ThreadFrame>
      <ThreadHeader bookId={bookId} userId={userId} book={bookInfo} other={other} loading={loadingHeader} />
      {forbidden || missing ? null : <ConcludeBar bookId={bookId} userId={userId} otherName={other?.name ?? null} />}

      <div
        ref={scrollRef}
        onScroll={onScroll}
        className="min-h-0 flex-1 overflow-y-auto overscroll-contain bg-slate-50 px-3 py-4 sm:px-5"
      >
        {forbidden || missing ? null : <SafetyTips conversationKey={`${bookId}/${userId}`} />}
        {thread.isPending ? (
          <ThreadSkeleton />
        ) : thread.isError && !newest ? (
          forbidden || missing ? (
            <EmptyState
              tone="warning"
              icon={<MessageIcon size={28} />}
              title={forbidden ? 'Cette conversation ne vous est pas accessible' : 'Conversation introuvable'}
              description={
                forbidden
                  ? errorMessage(error, 'Seuls les deux membres d’une conversation peuvent la lire.')
                  : 'Ce lien ne mène à aucune conversation : vérifiez l’adresse, ou retrouvez vos échanges dans vos messages.'
              }
              action={
                <Link to="/messages" className={buttonClasses('primary')}>
                  Mes messages
                </Link>
              }
            />
          ) : (
            <Alert tone="error" title="Impossible de charger la conversation">
              <p>{errorMessage(error, 'Vérifiez votre connexion puis réessayez.')}</p>
              <Button
                className="mt-3"
                size="sm"
                variant="outline"
                leftIcon={<RefreshIcon size={16} />}
                loading={thread.isFetching}
                onClick={() => void thread.refetch()}
              >
                Réessayer
              </Button>
            </Alert>
          )
        ) : (
          <>
            {hasOlder ? (
              <div className="mb-4 flex justify-center">
                <Button
                  size="sm"
                  variant="outline"
                  loading={thread.isFetchingNextPage}
                  onClick={() => void thread.fetchNextPage()}
                >
                  Messages précédents
                </Button>
              </div>
            ) : null}
            {thread.isFetchNextPageError ? (
              <p role="alert" className="mb-3 text-center text-sm text-red-700">
                {errorMessage(thread.error, 'Impossible de charger les messages précédents.')}
              </p>
            ) : null}
            {messages.length === 0 ? (
              <div className="flex h-full flex-col items-center justify-center px-6 text-center text-slate-600">
                <MessageIcon size={32} className="mb-3 text-primary-300" />
                <p className="font-medium text-slate-800">Aucun message pour l'instant</p>
                <p className="mt-1 text-sm">Écrivez le premier message à {otherName} ci-dessous.</p>
              </div>
            ) : (
              <MessageList messages={messages} otherName={otherName} />
            )}
          </>
        )}
      </div>

      <p id={liveId} aria-live="polite" aria-atomic="true" className="sr-only">
        {announcement}
      </p>

      {forbidden || missing ? null : (
        <Composer
          bookId={Number(bookId)}
          receiverId={userId}
          otherName={otherName}
          disabled={thread.isPending && !newest}
          onSent={stickToBottom}
        />
      )}
    </ThreadFrame>
  );
}

/**
 * « Conclure avec … »: shown to the owner of the book only, while it can still be dealt; opens the
 * dialog that records a sale, an exchange or a gift with the other member.
 */
function ConcludeBar({ bookId, userId, otherName }: { bookId: string; userId: string; otherName: string | null }) {
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const book = useQuery({ ...bookQuery(bookId), retry: false });
  const data = book.data;
  if (!data || !otherName || !sameId(data.user_id, user?.id) || data.status === 'vendu' || data.hidden) return null;
  return (
    <div className="flex items-center justify-between gap-2 border-b border-slate-200 bg-primary-50 px-3 py-2 sm:px-5">
      <p className="hidden min-w-0 text-sm text-primary-900 sm:block">Vous êtes d’accord avec {otherName} ?</p>
      <Button
        size="sm"
        leftIcon={<HandshakeIcon size={16} />}
        onClick={() => setOpen(true)}
        className="w-full min-w-0 sm:w-auto sm:shrink-0"
      >
        <span className="truncate">Conclure avec {otherName}</span>
      </Button>
      <ConcludeDialog
        open={open}
        onClose={() => setOpen(false)}
        book={{ id: data.id, title: data.title, price: data.price }}
        buyer={{ id: userId, name: otherName }}
      />
    </div>
  );
}
