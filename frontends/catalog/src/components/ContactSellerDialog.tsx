import { Alert, Button, Checkbox, Dialog, notify, Textarea } from '@cartable/ui';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type Book, sendMessage } from '../lib/books';
import { messages } from '../lib/messages';

const QUICK_REPLIES = [
  'Bonjour, ce manuel est-il toujours disponible ?',
  'Le prix est-il négociable ?',
  'Où pourrions-nous nous retrouver pour la remise ?',
];

export interface ContactSellerDialogProps {
  open: boolean;
  onClose: () => void;
  book: Book;
  sellerName: string;
  /** "exchange" starts the message with an exchange proposal. */
  intent?: 'contact' | 'exchange';
}

/** Message to the seller (POST /api/messages), with an optional copy by e-mail. */
export function ContactSellerDialog({ open, onClose, book, sellerName, intent = 'contact' }: ContactSellerDialogProps) {
  const [content, setContent] = useState('');
  const [copy, setCopy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const areaRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (!open) return;
    setError(undefined);
    setContent(
      intent === 'exchange'
        ? `Bonjour, je suis intéressé(e) par un échange pour votre manuel « ${book.title} ». Je vous propose en échange : `
        : '',
    );
  }, [open, intent, book.title]);

  const mutation = useMutation({
    mutationFn: () =>
      sendMessage({
        receiver_id: book.seller?.id ?? book.user_id,
        book_id: book.id,
        content: content.trim(),
        send_email_copy: copy,
      }),
    onSuccess: () => {
      void notify.success(messages.sendSuccess);
      if (copy) void notify.success(messages.emailCopySent);
      setContent('');
      onClose();
    },
    onError: () => {
      void notify.error(messages.sendError);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!content.trim()) {
      setError(messages.messageRequired);
      areaRef.current?.focus();
      return;
    }
    mutation.mutate();
  };

  return (
    <Dialog
      open={open}
      onClose={mutation.isPending ? () => {} : onClose}
      title={intent === 'exchange' ? 'Proposer un échange' : `Contacter ${sellerName}`}
      description={`À propos de « ${book.title} »`}
      initialFocusRef={areaRef}
      size="lg"
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        {mutation.isError ? (
          <Alert tone="error" title={messages.sendError}>
            Votre message n'est pas parti. Réessayez dans un instant.
          </Alert>
        ) : null}
        {intent === 'contact' ? (
          <ul className="flex flex-wrap gap-2" aria-label="Messages rapides">
            {QUICK_REPLIES.map((text) => (
              <li key={text}>
                <button
                  type="button"
                  onClick={() => {
                    setContent((c) => (c.trim() ? `${c.trim()} ${text}` : text));
                    setError(undefined);
                    areaRef.current?.focus();
                  }}
                  className="rounded-full border border-slate-300 bg-white px-3 py-1.5 text-left text-xs text-slate-700 hover:bg-slate-50"
                >
                  {text}
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <Textarea
          ref={areaRef}
          label="Votre message"
          rows={5}
          maxLength={2000}
          value={content}
          error={error}
          onChange={(event) => {
            setContent(event.target.value);
            if (error) setError(undefined);
          }}
          placeholder="Présentez-vous et posez vos questions au vendeur…"
        />
        <Checkbox
          label="M'envoyer une copie par e-mail"
          checked={copy}
          onChange={(event) => setCopy(event.target.checked)}
        />
        <div className="flex flex-col-reverse gap-2 pb-1 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onClose} disabled={mutation.isPending}>
            Annuler
          </Button>
          <Button type="submit" loading={mutation.isPending}>
            Envoyer le message
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
