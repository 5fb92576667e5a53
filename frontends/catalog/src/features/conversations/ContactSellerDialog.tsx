import { Button, buttonClasses, CheckCircleIcon, MessageIcon, Spinner } from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { Link } from '@cartable/ui/router';
import { lazy, type RefObject, Suspense, useEffect, useRef, useState } from 'react';
import type { BookDetail } from '../../shared/books';
import { type ContactIntent, sellerIdOf } from './seller';

/** The form (zod, react-hook-form) loads when the dialog first opens, not with the book page. */
const ContactSellerForm = lazy(() => import('./ContactSellerForm').then((m) => ({ default: m.ContactSellerForm })));

export interface ContactSellerDialogProps {
  open: boolean;
  onClose: () => void;
  book: BookDetail;
  sellerName: string;
  /** "exchange" starts the message with an exchange proposal. */
  intent?: ContactIntent;
}

/**
 * Message to the seller (POST /api/messages), with an optional copy by e-mail. Once sent, the
 * dialog offers the conversation (/messages/:bookId/:sellerId).
 */
export function ContactSellerDialog({ open, onClose, book, sellerName, intent = 'contact' }: ContactSellerDialogProps) {
  const [sent, setSent] = useState(false);
  const [pending, setPending] = useState(false);
  // A fresh form (text, checkbox, errors) each time the dialog opens.
  const [round, setRound] = useState(0);
  const areaRef = useRef<HTMLTextAreaElement>(null);
  const threadLinkRef = useRef<HTMLAnchorElement>(null);

  useEffect(() => {
    if (!open) return;
    setSent(false);
    setRound((n) => n + 1);
  }, [open]);

  useEffect(() => {
    if (sent) threadLinkRef.current?.focus();
  }, [sent]);

  const thread = `/messages/${book.id}/${sellerIdOf(book)}`;

  return (
    <Dialog
      open={open}
      onClose={pending ? () => {} : onClose}
      title={sent ? 'Message envoyé' : intent === 'exchange' ? 'Proposer un échange' : `Contacter ${sellerName}`}
      description={`À propos de « ${book.title} »`}
      initialFocusRef={areaRef}
      size="lg"
    >
      {sent ? (
        <div className="space-y-5">
          <p className="flex items-start gap-3 rounded-xl bg-primary-50 p-4 text-sm text-primary-900">
            <CheckCircleIcon size={20} className="mt-0.5 shrink-0 text-primary-700" />
            <span>
              Votre message a été envoyé à {sellerName}. Sa réponse arrivera dans vos messages ; vous serez aussi
              prévenu(e) par email.
            </span>
          </p>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onClose}>
              Fermer
            </Button>
            <Link ref={threadLinkRef} to={thread} className={buttonClasses('primary', 'md')}>
              <MessageIcon size={18} /> Voir la conversation
            </Link>
          </div>
        </div>
      ) : (
        <Suspense fallback={<Spinner className="mx-auto my-10" />}>
          <ContactSellerForm
            key={round}
            book={book}
            intent={intent}
            textareaRef={areaRef}
            onPendingChange={setPending}
            onSent={() => setSent(true)}
            secondaryAction={(busy) => (
              <Button variant="outline" onClick={onClose} disabled={busy}>
                Annuler
              </Button>
            )}
          />
          <FocusOnMount target={areaRef} />
        </Suspense>
      )}
    </Dialog>
  );
}

/** The form arriving after the dialog opened (first use): the text area gets the focus then. */
function FocusOnMount({ target }: { target: RefObject<HTMLTextAreaElement | null> }) {
  useEffect(() => {
    target.current?.focus();
  }, [target]);
  return null;
}
