import { messages } from '@cartable/contracts/messages';
import {
  Alert,
  ApiError,
  Button,
  Card,
  CardBody,
  CardHeader,
  errorMessage,
  notify,
  PasswordInput,
  queryKeys,
  sessionStore,
  TrashIcon,
} from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { useNavigate } from '@cartable/ui/router';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { issuesByField } from '../../../shared/forms';
import { deleteAccount } from '../api/profile';
import { accountChecks } from './checks';

export const DELETE_ACCOUNT_FALLBACK = 'Erreur lors de la suppression du compte';

/** DELETE /user/account with the password, confirmed in a dialog; then signed out, back home. */
export function DeleteAccountCard() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const formId = useId();
  const passwordRef = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  function close() {
    if (pending) return;
    setOpen(false);
    setPassword('');
    setError(undefined);
    setFailure(null);
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = await accountChecks.apply((checks) => checks.passwordOnly.safeParse({ password }));
    if (!parsed) return;
    if (!parsed.success) {
      setError(issuesByField(parsed.error.issues).password);
      passwordRef.current?.focus();
      return;
    }
    setPending(true);
    setFailure(null);
    try {
      const answer = await deleteAccount(parsed.data);
      sessionStore.clear();
      queryClient.removeQueries({ queryKey: queryKeys.user.all });
      notify.success(answer?.message ?? messages.auth.accountDeleted);
      navigate('/', { replace: true });
    } catch (failed) {
      const field = failed instanceof ApiError ? failed.fieldError('password') : undefined;
      if (field || (failed instanceof ApiError && failed.status === 422)) {
        setError(field ?? errorMessage(failed, messages.auth.passwordWrong));
        passwordRef.current?.focus();
      } else {
        setFailure(errorMessage(failed, DELETE_ACCOUNT_FALLBACK));
      }
      setPending(false);
    }
  }

  return (
    <Card id="suppression" className="scroll-mt-20 border-red-200">
      <CardHeader className="border-red-100">
        <h2 className="text-lg font-semibold text-red-800">Supprimer mon compte</h2>
      </CardHeader>
      <CardBody className="space-y-4">
        <p className="text-sm text-slate-700">
          Vos annonces, vos messages et vos informations seront supprimés. Cette action est définitive.
        </p>
        <div className="flex flex-col sm:flex-row sm:justify-end">
          <Button variant="danger" leftIcon={<TrashIcon size={18} />} onClick={() => setOpen(true)}>
            Supprimer mon compte
          </Button>
        </div>
      </CardBody>
      <Dialog
        open={open}
        role="alertdialog"
        onClose={close}
        initialFocusRef={passwordRef}
        title="Supprimer définitivement votre compte ?"
        description="Saisissez votre mot de passe pour confirmer. Il ne sera pas possible de revenir en arrière."
        footer={
          <>
            <Button variant="outline" onClick={close} disabled={pending}>
              Annuler
            </Button>
            <Button type="submit" form={formId} variant="danger" loading={pending}>
              Supprimer définitivement
            </Button>
          </>
        }
      >
        <form
          {...accountChecks.loadOnTouch}
          id={formId}
          noValidate
          onSubmit={onSubmit}
          className="space-y-4"
          aria-label="Confirmer la suppression"
        >
          {failure ? <Alert tone="error">{failure}</Alert> : null}
          <PasswordInput
            ref={passwordRef}
            label="Mot de passe"
            autoComplete="current-password"
            value={password}
            error={error}
            onChange={(event) => {
              setPassword(event.target.value);
              setError(undefined);
            }}
          />
        </form>
      </Dialog>
    </Card>
  );
}
