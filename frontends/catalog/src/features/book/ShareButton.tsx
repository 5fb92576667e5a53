import { Button } from '@cartable/ui';
import { lazy, Suspense, useState } from 'react';
import { ShareGlyph } from './ShareGlyph';

// The menu and its primitives (Radix, about 30 KiB) load when someone asks to share, not with the page.
const ShareMenu = lazy(() => import('./ShareMenu'));

/**
 * Partager: the phone's own share sheet where there is
 * one (Web Share API), else a menu: WhatsApp, Facebook, copy the link. The link itself carries
 * its preview (the gateway puts Open Graph tags in the page's HTML).
 */
export function ShareButton({ title, price }: { title: string; price: string }) {
  const [menu, setMenu] = useState(false);
  const url = window.location.href.split('#')[0] ?? window.location.href;
  const text = `${title} — ${price} sur Cartable`;
  const nativeSheet = typeof navigator.share === 'function' && window.matchMedia('(pointer: coarse)').matches;

  const button = (
    <Button
      variant="outline"
      leftIcon={<ShareGlyph />}
      aria-haspopup={nativeSheet ? undefined : 'menu'}
      onClick={() => {
        if (!nativeSheet) setMenu(true);
        // A cancelled share sheet rejects: nothing to say.
        else navigator.share({ title, text, url }).catch(() => {});
      }}
    >
      Partager
    </Button>
  );
  if (!menu) return button;
  return (
    <Suspense fallback={button}>
      <ShareMenu url={url} text={text} />
    </Suspense>
  );
}
