/** What the scan says, in French, when the camera or the reader cannot help: the form always stays usable. */
export const scanMessages = {
  refused:
    'Vous avez refusé l’accès à la caméra. Autorisez-la dans les réglages du navigateur, prenez une photo du code-barres, ou tapez l’ISBN dans le champ « ISBN ».',
  absent:
    'Aucune caméra n’est disponible sur cet appareil ou dans ce navigateur. Prenez une photo du code-barres, ou tapez l’ISBN dans le champ « ISBN ».',
  busy: 'La caméra est déjà utilisée par une autre application. Fermez-la et réessayez, ou prenez une photo du code-barres.',
  failed: 'La caméra n’a pas pu démarrer. Prenez une photo du code-barres, ou tapez l’ISBN dans le champ « ISBN ».',
  readerFailed:
    'Le lecteur de code-barres n’a pas pu être chargé. Vérifiez votre connexion et réessayez, ou tapez l’ISBN dans le champ « ISBN ».',
  photoUnreadable:
    'Aucun code-barres lisible sur cette photo : cadrez le code-barres de près, sans reflet, et réessayez, ou tapez l’ISBN.',
  aim: 'Placez le code-barres au dos du livre dans le cadre, à 10 à 15 cm de la caméra.',
  notABook: (ean: string) =>
    `Le code-barres ${ean} n’est pas celui d’un livre (l’ISBN commence par 978 ou 979). Visez le code-barres marqué « ISBN ».`,
} as const;

/** The French message for a getUserMedia failure (its DOMException's name). */
export function cameraProblem(error: unknown): string {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError')
    return scanMessages.refused;
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError')
    return scanMessages.absent;
  if (name === 'NotReadableError' || name === 'TrackStartError') return scanMessages.busy;
  return scanMessages.failed;
}
