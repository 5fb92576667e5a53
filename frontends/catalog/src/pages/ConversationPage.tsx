import {
  Alert,
  ApiError,
  Avatar,
  Badge,
  Button,
  buttonClasses,
  ChevronLeftIcon,
  cn,
  EmptyState,
  errorMessage,
  formatPrice,
  MessageIcon,
  RefreshIcon,
  Skeleton,
  Spinner,
  useDocumentTitle,
  useSession,
  useSubmissionKey,
} from '@cartable/ui';
import { Link, useParams } from '@cartable/ui/router';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { BookCover } from '../components/BookCard';
import { announceSendError, announceSent, CharacterCount } from '../components/ContactSellerForm';
import { bookKeys, fetchBook, sameId, statusLabel, truncate } from '../lib/books';
import {
  clockTime,
  dayKey,
  dayLabel,
  fetchThreadPage,
  MESSAGE_MAX,
  type Message,
  markThreadRead,
  mergeMessages,
  messageKeys,
  refreshUnread,
  sendMessage,
  THREAD_POLL_MS,
  type ThreadPage,
  usePageVisible,
} from '../lib/conversations';
import { messages as texts } from '../lib/messages';

/**
 * The newest page of a thread. The API lists messages oldest first and paginates; asked without a
 * page it answers the page holding the latest messages (the last one, pages being counted from the
 * end). `order` says which way older pages lie, learnt from the answer itself: "asc" when the
 * newest page is the last one, "desc" when it is page 1 (checked against the last page once).
 */
interface ThreadSnapshot extends ThreadPage {
  order: 'asc' | 'desc' | null;
}

function isAscending(first: ThreadPage, last: ThreadPage): boolean {
  const a = first.data[first.data.length - 1]?.created_at;
  const b = last.data[0]?.created_at;
  if (!a || !b) return true;
  return Date.parse(a) <= Date.parse(b);
}

async function fetchNewest(
  queryClient: QueryClient,
  bookId: string,
  userId: string,
  signal: AbortSignal,
): Promise<ThreadSnapshot> {
  const known = queryClient.getQueryData<ThreadSnapshot>(messageKeys.thread(bookId, userId));
  const page = await fetchThreadPage(bookId, userId, undefined, signal);
  const { current_page: current, last_page: last } = page.meta;
  if (last <= 1) return { ...page, order: null };
  if (current === last) return { ...page, order: 'asc' };
  if (known?.order === 'desc') return { ...page, order: 'desc' };
  // Page 1 of several: the newest messages, or the oldest? The last page tells.
  const tail = await fetchThreadPage(bookId, userId, last, signal);
  return isAscending(page, tail) ? { ...tail, order: 'asc' } : { ...page, order: 'desc' };
}

/** /messages/:bookId/:userId: one book, two members. */
export default function ConversationPage() {
  const { bookId = '', userId = '' } = useParams();
  const { user } = useSession();
  if (sameId(user?.id, userId)) {
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

/** Full height under the sticky header (4 rem): the list scrolls, the composer stays at the bottom. */
function ThreadFrame({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto flex h-[calc(100dvh-4rem)] w-full max-w-3xl flex-col bg-slate-50 sm:px-4 sm:py-4">
      <div className="flex min-h-0 flex-1 flex-col overflow-hidden bg-white sm:rounded-xl sm:border sm:border-slate-200 sm:shadow-sm">
        {children}
      </div>
    </div>
  );
}

function Thread({ bookId, userId }: { bookId: string; userId: string }) {
  const queryClient = useQueryClient();
  const visible = usePageVisible();
  const liveId = useId();

  const thread = useQuery({
    queryKey: messageKeys.thread(bookId, userId),
    queryFn: ({ signal }) => fetchNewest(queryClient, bookId, userId, signal),
    refetchInterval: visible ? THREAD_POLL_MS : false,
    retry: (failures, error) =>
      !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
  });
  const snapshot = thread.data;
  const conversation = snapshot?.conversation ?? null;

  // Without a conversation yet (or without its book), the book page tells title, price and seller.
  const needBook = thread.isSuccess && !conversation?.book;
  const book = useQuery({
    queryKey: bookKeys.detail(bookId),
    queryFn: ({ signal }) => fetchBook(bookId, signal),
    enabled: needBook,
    retry: false,
  });

  const bookInfo = conversation?.book ?? (book.data ? { ...book.data } : null);
  const other =
    conversation?.other_user ??
    (book.data?.seller && sameId(book.data.seller.id, userId)
      ? { id: userId, name: book.data.seller.name, profile_image: book.data.seller.profile_image }
      : null);
  const otherName = other?.name ?? 'ce membre';
  useDocumentTitle(other ? `Conversation avec ${other.name}` : 'Conversation');

  /* Older pages and the messages sent from here, merged with the polled newest page (by id:
     pages shift when messages arrive, so they may overlap). Older pages are addressed by their
     distance from the newest one, which new messages do not change. */
  const [extra, setExtra] = useState<Message[]>([]);
  const [pagesBack, setPagesBack] = useState(0);
  const all = useMemo(() => mergeMessages(extra, snapshot?.data ?? []), [extra, snapshot?.data]);

  const order = snapshot?.order ?? null;
  const lastPage = snapshot?.meta.last_page ?? 1;
  const total = snapshot?.meta.total ?? 0;
  const candidate = order === 'asc' ? lastPage - pagesBack - 1 : order === 'desc' ? pagesBack + 2 : 0;
  const previousPage = candidate >= 1 && candidate <= lastPage && all.length < total ? candidate : null;

  const older = useMutation({
    mutationFn: (page: number) => fetchThreadPage(bookId, userId, page),
    onSuccess: (page) => {
      setExtra((list) => mergeMessages(list, page.data));
      setPagesBack((n) => n + 1);
    },
  });

  /* Read receipts: the server marks the thread read on GET; messages that arrive while the
     thread is open and still come back unread are marked explicitly. Either way the header
     badge and the list are refreshed. */
  const seen = useRef<Set<string> | null>(null);
  const [live, setLive] = useState('');
  const markRead = useMutation({
    mutationFn: () => markThreadRead(bookId, userId),
    onSettled: () => refreshUnread(queryClient),
  });
  const { mutate: markReadNow } = markRead;
  useEffect(() => {
    if (!snapshot) return;
    const incoming = snapshot.data.filter((m) => !m.is_mine);
    const first = seen.current === null;
    const known = seen.current ?? new Set<string>();
    const fresh = incoming.filter((m) => !known.has(String(m.id)));
    for (const m of snapshot.data) known.add(String(m.id));
    seen.current = known;
    if (fresh.length === 0 && !first) return;
    if (incoming.some((m) => !m.read_at)) markReadNow();
    else refreshUnread(queryClient);
    if (!first && fresh.length > 0) {
      const latest = fresh[fresh.length - 1];
      setLive(
        fresh.length === 1 && latest
          ? `Nouveau message de ${otherName} : ${latest.content}`
          : `${fresh.length} nouveaux messages de ${otherName}`,
      );
    }
  }, [snapshot, markReadNow, queryClient, otherName]);

  /* Scrolling: to the bottom on arrival and on new messages (when already near it or when the
     message is mine); kept in place when older messages are added above. */
  const scrollRef = useRef<HTMLDivElement>(null);
  const nearBottom = useRef(true);
  const previous = useRef<{ first?: string; last?: string; height: number }>({ height: 0 });
  const firstId = all[0] ? String(all[0].id) : undefined;
  const lastMessage = all[all.length - 1];
  const lastId = lastMessage ? String(lastMessage.id) : undefined;
  useLayoutEffect(() => {
    const box = scrollRef.current;
    if (!box) return;
    const before = previous.current;
    if (lastId !== before.last) {
      if (before.last === undefined || nearBottom.current || lastMessage?.is_mine) box.scrollTop = box.scrollHeight;
    } else if (firstId !== before.first && before.height > 0) {
      box.scrollTop += box.scrollHeight - before.height;
    }
    previous.current = { first: firstId, last: lastId, height: box.scrollHeight };
  }, [firstId, lastId, lastMessage?.is_mine]);

  const onScroll = () => {
    const box = scrollRef.current;
    if (box) nearBottom.current = box.scrollHeight - box.scrollTop - box.clientHeight < 120;
  };

  const onSent = useCallback(
    (message: Message | undefined) => {
      if (message) setExtra((list) => mergeMessages(list, [message]));
      nearBottom.current = true;
      void queryClient.invalidateQueries({ queryKey: messageKeys.thread(bookId, userId) });
      void queryClient.invalidateQueries({ queryKey: messageKeys.conversations });
    },
    [queryClient, bookId, userId],
  );

  const error = thread.error;
  const forbidden = error instanceof ApiError && error.status === 403;
  const missing = error instanceof ApiError && error.status === 404;

  return (
    <ThreadFrame>
      <ThreadHeader
        bookId={bookId}
        userId={userId}
        book={bookInfo}
        other={other}
        loading={thread.isPending || (needBook && book.isPending)}
      />

      <div
        ref={scrollRef}
        onScroll={onScroll}
        className="min-h-0 flex-1 overflow-y-auto overscroll-contain bg-slate-50 px-3 py-4 sm:px-5"
      >
        {thread.isPending ? (
          <ThreadSkeleton />
        ) : thread.isError && !snapshot ? (
          forbidden || missing ? (
            <EmptyState
              tone="warning"
              icon={<MessageIcon size={28} />}
              title={forbidden ? 'Cette conversation ne vous est pas accessible' : 'Conversation introuvable'}
              description={errorMessage(error, 'Seuls les deux membres d’une conversation peuvent la lire.')}
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
            {previousPage !== null ? (
              <div className="mb-4 flex justify-center">
                <Button
                  size="sm"
                  variant="outline"
                  loading={older.isPending}
                  onClick={() => older.mutate(previousPage)}
                >
                  Messages précédents
                </Button>
              </div>
            ) : null}
            {older.isError ? (
              <p role="alert" className="mb-3 text-center text-sm text-red-700">
                {errorMessage(older.error, 'Impossible de charger les messages précédents.')}
              </p>
            ) : null}
            {all.length === 0 ? (
              <div className="flex h-full flex-col items-center justify-center px-6 text-center text-slate-600">
                <MessageIcon size={32} className="mb-3 text-primary-300" />
                <p className="font-medium text-slate-800">Aucun message pour l'instant</p>
                <p className="mt-1 text-sm">Écrivez le premier message à {otherName} ci-dessous.</p>
              </div>
            ) : (
              <MessageList messages={all} otherName={otherName} />
            )}
          </>
        )}
      </div>

      <p id={liveId} aria-live="polite" aria-atomic="true" className="sr-only">
        {live}
      </p>

      {forbidden || missing ? null : (
        <Composer
          bookId={Number(bookId)}
          receiverId={userId}
          otherName={otherName}
          disabled={thread.isPending && !snapshot}
          onSent={onSent}
        />
      )}
    </ThreadFrame>
  );
}

interface HeaderBook {
  id: number;
  title: string;
  thumbnail: string | null;
  price: number;
  status: string;
}

function ThreadHeader({
  bookId,
  userId,
  book,
  other,
  loading,
}: {
  bookId: string;
  userId: string;
  book: HeaderBook | null;
  other: { id: string; name: string; profile_image: string | null } | null;
  loading: boolean;
}) {
  const status = book?.status;
  return (
    <header className="flex items-center gap-2 border-b border-slate-200 bg-white px-2 py-2 sm:px-4 sm:py-3">
      <Link
        to="/messages"
        aria-label="Retour aux messages"
        className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100"
      >
        <ChevronLeftIcon size={22} />
      </Link>
      {loading && !book ? (
        <div className="flex flex-1 items-center gap-3">
          <Skeleton className="h-14 w-10 shrink-0" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-3 w-1/3" />
          </div>
        </div>
      ) : (
        <Link
          to={`/books/${book?.id ?? bookId}`}
          className="flex min-w-0 flex-1 items-center gap-3 rounded-lg p-1 hover:bg-slate-50"
        >
          <BookCover src={book?.thumbnail} alt="" className="h-14 w-10 shrink-0 rounded" />
          <div className="min-w-0">
            <h1 className="truncate text-sm leading-snug font-semibold text-slate-900 sm:text-base">
              {book ? truncate(book.title, 70) : 'Manuel'}
            </h1>
            <p className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
              {book ? (
                <span className="font-bold text-primary-800">{formatPrice(book.price, { zeroLabel: 'Don' })}</span>
              ) : null}
              {status ? (
                <Badge
                  tone={status === 'disponible' ? 'success' : status === 'réservé' ? 'accent' : 'neutral'}
                  className="text-[11px]"
                >
                  {statusLabel(status)}
                </Badge>
              ) : null}
            </p>
          </div>
        </Link>
      )}
      {other ? (
        <Link
          to={`/profile/${other.id ?? userId}`}
          className="flex shrink-0 items-center gap-2 rounded-full p-1 hover:bg-slate-50 sm:pr-3"
          aria-label={`Profil de ${other.name}`}
        >
          <Avatar name={other.name} image={other.profile_image} size="md" />
          <span className="hidden max-w-40 truncate text-sm font-medium text-slate-800 sm:block">{other.name}</span>
        </Link>
      ) : null}
    </header>
  );
}

function MessageList({ messages, otherName }: { messages: Message[]; otherName: string }) {
  const items: Array<{ day: string; label: string; messages: Message[] }> = [];
  for (const message of messages) {
    const key = dayKey(message.created_at);
    const group = items[items.length - 1];
    if (group && group.day === key) group.messages.push(message);
    else items.push({ day: key, label: dayLabel(message.created_at), messages: [message] });
  }
  return (
    <div className="space-y-4">
      {items.map((group) => (
        <section key={group.day} aria-label={group.label}>
          <div className="my-2 flex items-center gap-3" aria-hidden="true">
            <span className="h-px flex-1 bg-slate-200" />
            <span className="rounded-full bg-white px-3 py-0.5 text-xs font-medium text-slate-500 shadow-sm ring-1 ring-slate-200">
              {group.label}
            </span>
            <span className="h-px flex-1 bg-slate-200" />
          </div>
          <ol className="space-y-1.5">
            {group.messages.map((message) => (
              <Bubble key={String(message.id)} message={message} otherName={otherName} />
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}

function Bubble({ message, otherName }: { message: Message; otherName: string }) {
  const mine = message.is_mine;
  return (
    <li className={cn('flex', mine ? 'justify-end' : 'justify-start')} data-testid="message">
      <div
        className={cn(
          'max-w-[85%] rounded-2xl px-3.5 py-2 shadow-sm sm:max-w-[70%]',
          mine
            ? 'rounded-br-md bg-primary-600 text-white'
            : 'rounded-bl-md bg-white text-slate-900 ring-1 ring-slate-200',
        )}
      >
        <p className="sr-only">{mine ? 'Vous :' : `${otherName} :`}</p>
        <p className="text-[15px] leading-snug break-words whitespace-pre-wrap">{message.content}</p>
        <p className={cn('mt-1 text-right text-[11px]', mine ? 'text-primary-100' : 'text-slate-500')}>
          <time dateTime={message.created_at}>{clockTime(message.created_at)}</time>
          {mine && message.read_at ? <span> · Lu</span> : null}
        </p>
      </div>
    </li>
  );
}

function ThreadSkeleton() {
  return (
    <div className="space-y-3" data-testid="thread-loading">
      <span className="sr-only" role="status">
        Chargement de la conversation…
      </span>
      {['w-2/3', 'ml-auto w-1/2', 'w-3/5', 'ml-auto w-2/5', 'w-1/2'].map((width) => (
        <Skeleton key={width} className={cn('h-12 rounded-2xl', width)} />
      ))}
    </div>
  );
}

/** Enter sends, Shift+Enter adds a line; blank is refused; 2000 characters at most. */
function Composer({
  bookId,
  receiverId,
  otherName,
  disabled,
  onSent,
}: {
  bookId: number;
  receiverId: string;
  otherName: string;
  disabled: boolean;
  onSent: (message: Message | undefined) => void;
}) {
  const [content, setContent] = useState('');
  const [copy, setCopy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const areaRef = useRef<HTMLTextAreaElement>(null);
  const fieldId = useId();
  const errorId = `${fieldId}-error`;
  const countId = `${fieldId}-count`;

  // The field grows with its text up to about six lines.
  // biome-ignore lint/correctness/useExhaustiveDependencies: measures on every text change
  useLayoutEffect(() => {
    const area = areaRef.current;
    if (!area) return;
    area.style.height = 'auto';
    area.style.height = `${Math.min(area.scrollHeight, 160)}px`;
  }, [content]);

  const submission = useSubmissionKey();
  const send = useMutation({
    mutationFn: (text: string) =>
      sendMessage(
        { receiver_id: receiverId, book_id: bookId, content: text, send_email_copy: copy },
        submission.current(),
      ),
    onSuccess: (result) => {
      submission.renew();
      announceSent(result, copy);
      setContent('');
      onSent(result.data);
      areaRef.current?.focus();
    },
    onError: (failure) => {
      announceSendError(failure);
      if (failure instanceof ApiError && failure.status === 422) {
        setError(failure.fieldError('content') ?? (failure.hasServerMessage ? failure.message : undefined));
      }
    },
  });

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (send.isPending) return;
    const text = content.trim();
    if (!text) {
      setError(texts.messageRequired);
      areaRef.current?.focus();
      return;
    }
    send.mutate(text);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={`Répondre à ${otherName}`}
      className="border-t border-slate-200 bg-white px-3 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))] sm:px-4 sm:pt-3 sm:pb-3"
    >
      <label htmlFor={fieldId} className="sr-only">
        Votre message
      </label>
      <div className="flex items-end gap-2">
        <textarea
          ref={areaRef}
          id={fieldId}
          rows={1}
          maxLength={MESSAGE_MAX}
          value={content}
          disabled={disabled}
          onChange={(event) => {
            setContent(event.target.value);
            if (error) setError(undefined);
          }}
          onKeyDown={onKeyDown}
          aria-invalid={error ? true : undefined}
          aria-describedby={[error ? errorId : null, countId].filter(Boolean).join(' ')}
          placeholder={`Écrire à ${otherName}…`}
          enterKeyHint="send"
          className={cn(
            'block max-h-40 min-h-11 w-full resize-none rounded-2xl border bg-white px-3.5 py-2.5 text-base text-slate-900 placeholder:text-slate-400 focus:ring-4 focus:outline-none',
            error
              ? 'border-red-500 focus:border-red-500 focus:ring-red-200'
              : 'border-slate-300 focus:border-primary-600 focus:ring-primary-100',
          )}
        />
        <Button
          type="submit"
          className="h-11 shrink-0 rounded-full px-4"
          disabled={disabled}
          aria-busy={send.isPending}
        >
          {send.isPending ? <Spinner size="sm" label={null} /> : <MessageIcon size={18} />}
          <span className="sr-only sm:not-sr-only">Envoyer</span>
        </Button>
      </div>
      {error ? (
        <p id={errorId} role="alert" className="mt-1.5 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <div className="mt-1.5 flex items-center justify-between gap-3 text-xs text-slate-500">
        <label className="flex cursor-pointer items-center gap-2 py-1">
          <input
            type="checkbox"
            checked={copy}
            onChange={(event) => setCopy(event.target.checked)}
            className="h-4 w-4 rounded border-slate-300 accent-primary-700"
          />
          <span className="text-slate-700">M'envoyer une copie par email</span>
        </label>
        <CharacterCount id={countId} length={content.length} />
      </div>
    </form>
  );
}
