import { deactivateRequestSchema } from '@cartable/contracts';
import { Button, hasPermission, isAdminUser, MailIcon, Textarea, useSession } from '@cartable/ui';
import { ConfirmDialog, Dialog } from '@cartable/ui/overlays';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { AdminUserDetail } from '../api/users';
import { useNotifiedUserAction } from './user-action';

const deactivateResolver = zodResolver(deactivateRequestSchema);

type Pending = 'promote' | 'revoke' | 'reactivate' | 'deactivate' | null;

/**
 * What may be done to the account from its header: resend the verification email, promote or
 * revoke an administrator, deactivate (with a reason) or reactivate; each change asks first. An
 * administrator does not act on their own account.
 */
export function AccountActions({ user }: { user: AdminUserDetail['user'] }) {
  const { user: me } = useSession();
  const isAdmin = isAdminUser(me);
  const self = me?.id === user.id;
  const [pending, setPending] = useState<Pending>(null);
  const form = useForm<{ reason: string }>({ resolver: deactivateResolver, defaultValues: { reason: '' } });
  const action = useNotifiedUserAction(user.id, {
    onSuccess: (done) => {
      setPending(null);
      if (done.kind === 'deactivate') form.reset();
    },
    onError: () => setPending(null),
  });
  const running = action.running;

  const confirmTexts = {
    promote: {
      title: 'Promouvoir administrateur ?',
      description: `${user.name} aura tous les droits sur le back office.`,
      label: 'Promouvoir',
    },
    revoke: {
      title: 'Retirer les droits d’administrateur ?',
      description: `${user.name} perdra l’accès au back office et ses sessions seront fermées.`,
      label: 'Retirer',
    },
    reactivate: {
      title: 'Réactiver ce compte ?',
      description: `${user.name} pourra de nouveau se connecter et ses annonces réapparaîtront.`,
      label: 'Réactiver',
    },
  } as const;
  const confirm = pending && pending !== 'deactivate' ? confirmTexts[pending] : null;

  return (
    <div className="flex flex-wrap gap-2">
      {!user.email_verified && hasPermission('users.view.any', me) ? (
        <Button
          variant="outline"
          leftIcon={<MailIcon size={16} />}
          loading={running === 'resend'}
          onClick={() => action.mutate({ kind: 'resend' })}
        >
          Renvoyer l’email de vérification
        </Button>
      ) : null}
      {isAdmin && !self ? (
        <>
          {user.is_admin ? (
            <Button variant="outline" onClick={() => setPending('revoke')}>
              Retirer les droits d’admin
            </Button>
          ) : (
            <Button variant="outline" onClick={() => setPending('promote')}>
              Promouvoir administrateur
            </Button>
          )}
          {user.deactivated_at ? (
            <Button onClick={() => setPending('reactivate')}>Réactiver le compte</Button>
          ) : (
            <Button variant="danger" onClick={() => setPending('deactivate')}>
              Désactiver le compte
            </Button>
          )}
        </>
      ) : null}

      <ConfirmDialog
        open={confirm !== null}
        title={confirm?.title}
        description={confirm?.description}
        confirmLabel={confirm?.label ?? ''}
        tone={pending === 'revoke' ? 'danger' : 'primary'}
        loading={action.isPending}
        onConfirm={() => pending && pending !== 'deactivate' && action.mutate({ kind: pending })}
        onCancel={() => setPending(null)}
      />

      <Dialog
        open={pending === 'deactivate'}
        onClose={() => (action.isPending ? undefined : setPending(null))}
        role="alertdialog"
        title="Désactiver ce compte ?"
        description={`${user.name} ne pourra plus se connecter, ses sessions seront fermées et ses annonces masquées du catalogue.`}
        footer={
          <>
            <Button variant="outline" onClick={() => setPending(null)} disabled={action.isPending}>
              Annuler
            </Button>
            <Button variant="danger" type="submit" form="deactivate-form" loading={running === 'deactivate'}>
              Désactiver
            </Button>
          </>
        }
      >
        <form
          id="deactivate-form"
          onSubmit={form.handleSubmit(({ reason }) => action.mutate({ kind: 'deactivate', reason }))}
          noValidate
        >
          <Textarea
            label="Motif (visible par les administrateurs)"
            rows={3}
            maxLength={500}
            error={form.formState.errors.reason?.message}
            {...form.register('reason')}
          />
        </form>
      </Dialog>
    </div>
  );
}
