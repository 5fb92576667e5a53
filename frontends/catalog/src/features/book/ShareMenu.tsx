import { Button, CopyIcon, MessageIcon, notify } from '@cartable/ui';
import { Menu, MenuContent, MenuItem, MenuTrigger } from '@cartable/ui/overlays';
import { ShareGlyph } from './ShareGlyph';

/** The share menu, opened as it loads (the button that asked for it stood in its place). */
export default function ShareMenu({ url, text }: { url: string; text: string }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      void notify.success('Lien copié');
    } catch {
      void notify.error('Le lien n’a pas pu être copié. Copiez-le depuis la barre d’adresse.');
    }
  }

  return (
    <Menu defaultOpen>
      <MenuTrigger asChild>
        <Button variant="outline" leftIcon={<ShareGlyph />}>
          Partager
        </Button>
      </MenuTrigger>
      <MenuContent aria-label="Partager cette annonce">
        <MenuItem asChild>
          <a
            href={`https://wa.me/?text=${encodeURIComponent(`${text} ${url}`)}`}
            target="_blank"
            rel="noopener noreferrer"
          >
            <MessageIcon size={16} /> WhatsApp
          </a>
        </MenuItem>
        <MenuItem asChild>
          <a
            href={`https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`}
            target="_blank"
            rel="noopener noreferrer"
          >
            <ShareGlyph size={16} /> Facebook
          </a>
        </MenuItem>
        <MenuItem onSelect={() => void copy()}>
          <CopyIcon size={16} /> Copier le lien
        </MenuItem>
      </MenuContent>
    </Menu>
  );
}
