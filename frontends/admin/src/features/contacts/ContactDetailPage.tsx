import { contactRespondRequestSchema } from '@cartable/contracts';
import {
  Alert,
  ApiError,
  Button,
  Card,
  CardBody,
  CardHeader,
  CardTitle,
  ChevronLeftIcon,
  errorMessage,
  formatDateTime,
  MailIcon,
  notify,
  PageHeader,
  Select,
  Skeleton,
  Textarea,
  TrashIcon,
  useDocumentTitle,
} from '@cartable/ui';
import { ConfirmDialog } from '@cartable/ui/overlays';
import { Link, useNavigate, useParams } from '@cartable/ui/router';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { LOAD_ERROR } from '../../shared/messages';
import {
  CONTACT_STATUS_LABELS,
  CONTACT_STATUSES,
  type ContactStatus,
  useContact,
  useDeleteContact,
  useRespondToContact,
  useSetContactStatus,
} from './api/contacts';
import { StatusBadge } from './StatusBadge';

/** The answer's rules and French message come from the contract (POST /admin/contacts/{id}/respond). */
const respondResolver = zodResolver(contactRespondRequestSchema);

/** One contact message: read it, answer it by e-mail, change its status or delete it. */
export default function ContactDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const contact = useContact(id);
  useDocumentTitle(`${contact.data?.subject ?? 'Message de contact'} · Administration`);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    clearErrors,
    watch,
    formState: { errors },
  } = useForm<{ response: string }>({
    defaultValues: { response: '' },
    resolver: respondResolver,
    // The error shows on sending and goes as soon as the text changes.
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });
  const response = watch('response');
  const [confirmDelete, setConfirmDelete] = useState(false);

  const respond = useRespondToContact(id, {
    onSuccess: (answer) => {
      void notify.success(answer?.message || 'Réponse envoyée par email');
      reset({ response: '' });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 422) {
        setError('response', { type: 'server', message: error.fieldError('response') ?? error.message });
        return;
      }
      void notify.error(errorMessage(error, "Erreur lors de l'envoi de la réponse"));
    },
  });

  const status = useSetContactStatus(id, {
    onSuccess: (answer) => {
      void notify.success('Statut mis à jour');
      if (!answer?.data) void contact.refetch();
    },
    onError: (error) => void notify.error(errorMessage(error, 'Erreur lors de la mise à jour du statut')),
  });

  const remove = useDeleteContact(id, {
    onSuccess: (answer) => {
      void notify.success(answer?.message || 'Message supprimé avec succès');
      navigate('/admin/contacts', { replace: true });
    },
    onError: (error) => {
      setConfirmDelete(false);
      void notify.error(errorMessage(error, 'Erreur lors de la suppression du message'));
    },
  });

  const submit = handleSubmit(({ response: text }) => respond.mutate(text));

  const back = (
    <Link
      to="/admin/contacts"
      className="mb-3 inline-flex items-center gap-1 text-sm font-medium text-primary-700 hover:underline"
    >
      <ChevronLeftIcon size={16} /> Messages de contact
    </Link>
  );

  if (contact.isError) {
    const missing = contact.error instanceof ApiError && contact.error.status === 404;
    return (
      <>
        {back}
        <Alert
          tone="error"
          title={missing ? 'Message introuvable' : LOAD_ERROR}
          action={
            missing ? undefined : (
              <Button variant="outline" size="sm" onClick={() => void contact.refetch()} loading={contact.isFetching}>
                Réessayer
              </Button>
            )
          }
        >
          {missing ? 'Ce message a peut-être été supprimé.' : errorMessage(contact.error, '')}
        </Alert>
      </>
    );
  }

  const data = contact.data;
  return (
    <>
      {back}
      {!data ? (
        <div className="space-y-4" data-testid="contact-loading">
          <Skeleton className="h-9 w-2/3" />
          <Skeleton className="h-48 w-full" />
        </div>
      ) : (
        <>
          <PageHeader
            title={data.subject}
            description={
              <span className="flex flex-wrap items-center gap-2">
                <StatusBadge status={data.status} /> Reçu le {formatDateTime(data.created_at)}
              </span>
            }
            actions={
              <Button variant="danger" leftIcon={<TrashIcon size={18} />} onClick={() => setConfirmDelete(true)}>
                Supprimer
              </Button>
            }
          />
          <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
            <div className="space-y-4">
              <Card>
                <CardHeader>
                  <CardTitle>Message</CardTitle>
                </CardHeader>
                <CardBody>
                  <p className="text-sm whitespace-pre-line break-words text-slate-800" data-testid="contact-message">
                    {data.message}
                  </p>
                </CardBody>
              </Card>

              {data.response ? (
                <Card className="border-primary-200">
                  <CardHeader>
                    <CardTitle>Réponse envoyée</CardTitle>
                  </CardHeader>
                  <CardBody>
                    <p className="text-sm whitespace-pre-line break-words text-slate-800">{data.response}</p>
                    {data.responded_at ? (
                      <p className="mt-2 text-xs text-slate-500">Envoyée le {formatDateTime(data.responded_at)}</p>
                    ) : null}
                  </CardBody>
                </Card>
              ) : null}

              <Card>
                <CardHeader>
                  <CardTitle>{data.response ? 'Envoyer une nouvelle réponse' : 'Répondre'}</CardTitle>
                </CardHeader>
                <CardBody>
                  <form noValidate onSubmit={submit} className="space-y-3" aria-label="Répondre au message">
                    <Textarea
                      label={`Réponse à ${data.name}`}
                      rows={6}
                      error={errors.response?.message}
                      hint={`La réponse sera envoyée par email à ${data.email}.`}
                      {...register('response', { onChange: () => clearErrors('response') })}
                    />
                    <div className="flex justify-end">
                      <Button
                        type="submit"
                        leftIcon={<MailIcon size={18} />}
                        loading={respond.isPending}
                        disabled={!response.trim()}
                      >
                        Envoyer la réponse
                      </Button>
                    </div>
                  </form>
                </CardBody>
              </Card>
            </div>

            <div className="space-y-4">
              <Card>
                <CardHeader>
                  <CardTitle>Expéditeur</CardTitle>
                </CardHeader>
                <CardBody>
                  <dl className="space-y-2 text-sm">
                    <div>
                      <dt className="text-slate-500">Nom</dt>
                      <dd className="font-medium text-slate-900">{data.name}</dd>
                    </div>
                    <div>
                      <dt className="text-slate-500">Adresse email</dt>
                      <dd className="font-medium break-all">
                        <a href={`mailto:${data.email}`} className="tap-target text-primary-700 hover:underline">
                          {data.email}
                        </a>
                      </dd>
                    </div>
                  </dl>
                </CardBody>
              </Card>
              <Card>
                <CardHeader>
                  <CardTitle>Suivi</CardTitle>
                </CardHeader>
                <CardBody>
                  <Select
                    label="Statut"
                    value={data.status}
                    disabled={status.isPending}
                    onChange={(event) => status.mutate(event.target.value as ContactStatus)}
                  >
                    {CONTACT_STATUSES.map((value) => (
                      <option key={value} value={value}>
                        {CONTACT_STATUS_LABELS[value]}
                      </option>
                    ))}
                  </Select>
                </CardBody>
              </Card>
            </div>
          </div>
        </>
      )}
      <ConfirmDialog
        open={confirmDelete}
        title="Supprimer ce message ?"
        description={data ? `Le message de ${data.name} « ${data.subject} » sera supprimé définitivement.` : undefined}
        confirmLabel="Supprimer"
        loading={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirmDelete(false)}
      />
    </>
  );
}
