import { errorMessage, notify } from '@cartable/ui';
import { type UserAction, useUserAction } from '../api/users';

/** French fallbacks when the server says nothing (SPEC section 8 style). */
const FALLBACKS: Record<UserAction['kind'], string> = {
  promote: 'Erreur lors de la promotion',
  revoke: 'Erreur lors du retrait des droits',
  deactivate: 'Erreur lors de la désactivation du compte',
  reactivate: 'Erreur lors de la réactivation du compte',
  resend: "Erreur lors de l'envoi de l'email de vérification",
  roles: 'Erreur lors de la mise à jour des rôles',
  permissions: 'Erreur lors de la mise à jour des permissions',
};

/**
 * A change to a member's account or rights, its outcome told in a toast (the server's message, or
 * a French fallback); `after` lets the part that asked close its dialog.
 */
export function useNotifiedUserAction(
  userId: string,
  after: { onSuccess?: (done: UserAction) => void; onError?: (done: UserAction) => void } = {},
) {
  const action = useUserAction(userId, {
    onSuccess: (done, answer) => {
      after.onSuccess?.(done);
      void notify.success(answer.message);
    },
    onError: (done, error) => {
      after.onError?.(done);
      void notify.error(errorMessage(error, FALLBACKS[done.kind]));
    },
  });
  /** The kind of change under way, if any. */
  const running = action.isPending ? (action.variables?.kind ?? null) : null;
  return { ...action, running };
}
