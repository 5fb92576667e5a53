import { Button, CopyIcon, MessageIcon, notify } from '@cartable/ui';
import { Menu, MenuContent, MenuItem, MenuTrigger } from '@cartable/ui/overlays';

function ShareGlyph({ size = 18 }: { size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <circle cx="18" cy="5" r="3" />
      <circle cx="6" cy="12" r="3" />
      <circle cx="18" cy="19" r="3" />
      <path d="m8.6 13.5 6.8 4M15.4 6.5l-6.8 4" />
    </svg>
  );
}

/**
 * Partager (the issue « Deals and trust », sharing): the phone's own share sheet where there is
 * one (Web Share API), else a menu: WhatsApp, Facebook, copy the link. The link itself carries
 * its preview (the gateway puts Open Graph tags in the page's HTML).
 */
export function ShareButton({ title, price }: { title: string; price: string }) {
  const url = window.location.href.split('#')[0] ?? window.location.href;
  const text = `${title} — ${price} sur Cartable`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      void notify.success('Lien copié');
    } catch {
      void notify.error('Le lien n’a pas pu être copié. Copiez-le depuis la barre d’adresse.');
    }
  }

  if (typeof navigator.share === 'function' && window.matchMedia('(pointer: coarse)').matches) {
    return (
      <Button
        variant="outline"
        leftIcon={<ShareGlyph />}
        onClick={() => {
          // A cancelled share sheet rejects: nothing to say.
          navigator.share({ title, text, url }).catch(() => {});
        }}
      >
        Partager
      </Button>
    );
  }

  return (
    <Menu>
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
