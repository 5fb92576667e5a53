import { Alert, Button, CopyIcon, DownloadIcon, notify } from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { useRef } from 'react';

export const RECOVERY_FILE_NAME = 'cartable-codes-de-recuperation.txt';

function fileText(codes: string[], email: string): string {
  const date = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short' }).format(new Date());
  return [
    'Cartable – codes de récupération',
    `Compte : ${email}`,
    `Générés le ${date}`,
    '',
    'Chaque code ne sert qu’une fois. Utilisez-en un à la connexion si vous ne recevez pas le code par email.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/** The recovery codes, shown once, with copy and download and a clear warning. */
export function RecoveryCodesDialog({
  codes,
  email,
  onClose,
}: {
  codes: string[];
  email: string;
  onClose: () => void;
}) {
  const doneRef = useRef<HTMLButtonElement>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      notify.success('Codes copiés dans le presse-papiers');
    } catch {
      notify.error('Impossible de copier les codes : sélectionnez-les et copiez-les à la main.');
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([fileText(codes, email)], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = RECOVERY_FILE_NAME;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  return (
    <Dialog
      open
      role="alertdialog"
      // Escape must not lose codes that are never shown again: only the button closes.
      onClose={() => {}}
      initialFocusRef={doneRef}
      title="Vos codes de récupération"
      description="Ils permettent de vous connecter si vous ne recevez plus le code par email."
      footer={
        <Button ref={doneRef} onClick={onClose}>
          J'ai conservé mes codes
        </Button>
      }
    >
      <div className="space-y-4">
        <Alert tone="warning" title="Ces codes ne seront plus jamais affichés">
          Copiez-les ou téléchargez-les maintenant et gardez-les en lieu sûr. Chaque code ne sert qu'une fois.
        </Alert>
        <ul
          aria-label="Codes de récupération"
          className="grid grid-cols-2 gap-2 rounded-xl bg-slate-900 p-4 font-mono text-sm text-white select-all"
        >
          {codes.map((code) => (
            <li key={code} data-testid="recovery-code" className="text-center tracking-wider">
              {code}
            </li>
          ))}
        </ul>
        <div className="grid grid-cols-2 gap-2">
          <Button variant="outline" leftIcon={<CopyIcon size={18} />} onClick={copy}>
            Copier
          </Button>
          <Button variant="outline" leftIcon={<DownloadIcon size={18} />} onClick={download}>
            Télécharger
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
