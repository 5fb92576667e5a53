import { Button, ClockIcon, useLogout } from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { useRef } from 'react';

/** The warning before an inactivity sign-out: an alertdialog counting down, focus on "Continuer". */
export default function IdleWarningDialog({ left, onContinue }: { left: number; onContinue: () => void }) {
  const continueRef = useRef<HTMLButtonElement>(null);
  const logoutNow = useLogout();
  return (
    <Dialog
      open
      role="alertdialog"
      onClose={onContinue}
      initialFocusRef={continueRef}
      size="sm"
      title="Votre session va bientôt expirer"
      description="Sans activité de votre part, vous serez déconnecté automatiquement pour protéger votre compte."
      footer={
        <>
          <Button variant="outline" onClick={() => void logoutNow()}>
            Se déconnecter
          </Button>
          <Button ref={continueRef} onClick={onContinue}>
            Continuer ma session
          </Button>
        </>
      }
    >
      <div className="flex items-center gap-3 rounded-xl bg-accent-50 px-4 py-3 text-accent-900">
        <ClockIcon size={28} className="shrink-0" />
        <p className="text-sm">
          Déconnexion dans{' '}
          <span role="timer" aria-live="off" className="text-2xl font-bold tabular-nums" data-testid="idle-countdown">
            {left}
          </span>{' '}
          {left > 1 ? 'secondes' : 'seconde'}
        </p>
      </div>
    </Dialog>
  );
}
