import { buttonClasses, ChevronLeftIcon, ChevronRightIcon, cn, PauseIcon, PlayIcon, sameSitePath } from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import { usePrefersReducedMotion } from '../../shared/hooks';
import { type Banner, useActiveBanners } from './api/home';

/** What a slide shows: an active banner of the back office, or one of the built-in slides. */
export type Slide = Omit<Banner, 'id' | 'order' | 'is_active'> & { key: string };

/** SPEC section 9: 5 s between slides. */
export const CAROUSEL_INTERVAL_MS = 5000;

/** Shown when no banner is active or the call fails (no image: nothing to download). */
export const BUILT_IN_BANNERS: Slide[] = [
  {
    key: 'builtin-1',
    title: 'Vos manuels scolaires à petit prix',
    subtitle: 'Achetez des manuels d’occasion près de chez vous, partout au Gabon.',
    image_url: null,
    button_text: 'Parcourir les manuels',
    button_link: '/books',
    color: 'dark',
  },
  {
    key: 'builtin-2',
    title: 'Donnez une seconde vie à vos livres',
    subtitle: 'Vendez, échangez ou donnez les manuels dont vous n’avez plus besoin. Sans commission.',
    image_url: null,
    button_text: 'Vendre un manuel',
    button_link: '/books/add',
    color: 'light',
  },
  {
    key: 'builtin-3',
    title: 'Rentrée scolaire : préparez-vous malin',
    subtitle: 'Du primaire au lycée, trouvez les manuels de votre classe en quelques clics.',
    image_url: null,
    button_text: 'Trouver mes manuels',
    button_link: '/books',
    color: 'dark',
  },
];

const BUILT_IN_BACKGROUNDS = [
  'bg-[radial-gradient(circle_at_85%_20%,var(--color-primary-500),transparent_55%),radial-gradient(circle_at_10%_100%,var(--color-ocean-600),transparent_55%)] bg-primary-800',
  'bg-[radial-gradient(circle_at_90%_80%,var(--color-accent-300),transparent_50%),radial-gradient(circle_at_0%_0%,var(--color-primary-100),transparent_60%)] bg-accent-100',
  'bg-[radial-gradient(circle_at_80%_30%,var(--color-ocean-400),transparent_55%),radial-gradient(circle_at_0%_100%,var(--color-primary-600),transparent_55%)] bg-ocean-800',
];

/**
 * Home carousel (SPEC sections 2 and 9): active banners, or three built-in ones; a slide every
 * 5 s, paused on hover, on keyboard focus, with the pause button or when the user prefers less
 * motion; arrows, dots, ← and → keys. Images are 400 px high (300 px on phones).
 */
export function BannerCarousel() {
  const banners = useActiveBanners();
  const slides: Slide[] = banners.data?.length
    ? banners.data.map((banner) => ({ ...banner, key: String(banner.id) }))
    : BUILT_IN_BANNERS;
  const builtIn = slides === BUILT_IN_BANNERS;
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [stopped, setStopped] = useState(false);
  const reduced = usePrefersReducedMotion();
  const id = useId();
  const count = slides.length;
  const current = Math.min(index, count - 1);
  const paused = hovered || focused || stopped || reduced;

  useEffect(() => {
    if (paused || count < 2) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % count), CAROUSEL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [paused, count]);

  const go = (delta: number) => setIndex((i) => (i + delta + count) % count);
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'ArrowLeft') {
      event.preventDefault();
      go(-1);
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      go(1);
    }
  };

  return (
    <section
      aria-roledescription="carrousel"
      aria-label="Actualités"
      className="relative overflow-hidden bg-slate-900"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
      onKeyDown={onKeyDown}
    >
      <div id={`${id}-slides`} aria-live={paused ? 'polite' : 'off'} className="relative h-[340px] sm:h-[400px]">
        {slides.map((banner, i) => {
          const dark = banner.color !== 'light';
          const active = i === current;
          return (
            // biome-ignore lint/a11y/useSemanticElements: APG carousel pattern (a slide is a group, not a form fieldset)
            <div
              key={banner.key}
              role="group"
              aria-roledescription="diapositive"
              aria-label={`${i + 1} sur ${count} : ${banner.title}`}
              aria-hidden={!active}
              inert={!active}
              className={cn(
                'absolute inset-0 transition-opacity duration-700 motion-reduce:transition-none',
                active ? 'opacity-100' : 'pointer-events-none opacity-0',
              )}
            >
              {banner.image_url ? (
                <img
                  src={banner.image_url}
                  alt=""
                  loading={i === 0 ? 'eager' : 'lazy'}
                  fetchPriority={i === 0 ? 'high' : 'low'}
                  decoding="async"
                  className="absolute inset-0 h-full w-full object-cover"
                  height={400}
                />
              ) : (
                <div aria-hidden="true" className={cn('absolute inset-0', BUILT_IN_BACKGROUNDS[i % 3])} />
              )}
              {banner.image_url ? (
                <div
                  aria-hidden="true"
                  className={cn(
                    'absolute inset-0',
                    dark
                      ? 'bg-linear-to-r from-slate-950/80 via-slate-950/50 to-transparent'
                      : 'bg-linear-to-r from-white/90 via-white/60 to-transparent',
                  )}
                />
              ) : null}
              {/* On a phone the controls sit in a bar of their own at the bottom (pb-14), never on the text. */}
              <div className="relative mx-auto flex h-full max-w-6xl flex-col justify-center px-4 pt-4 pb-14 sm:px-16 sm:py-0 lg:px-20">
                <h2
                  className={cn(
                    'max-w-xl text-2xl leading-tight font-extrabold tracking-tight sm:text-4xl',
                    dark ? 'text-white' : 'text-slate-900',
                  )}
                >
                  {banner.title}
                </h2>
                {banner.subtitle ? (
                  <p className={cn('mt-3 max-w-lg text-sm sm:text-lg', dark ? 'text-white/90' : 'text-slate-700')}>
                    {banner.subtitle}
                  </p>
                ) : null}
                {banner.button_text && banner.button_link ? (
                  <div className="mt-5 sm:mt-7">
                    <BannerLink
                      href={banner.button_link}
                      className={buttonClasses(dark ? 'accent' : 'primary', 'lg')}
                      text={banner.button_text}
                    />
                  </div>
                ) : null}
              </div>
            </div>
          );
        })}
      </div>

      {count > 1 ? (
        <>
          <button
            type="button"
            onClick={() => go(-1)}
            aria-controls={`${id}-slides`}
            aria-label="Bannière précédente"
            className="absolute bottom-2 left-2 flex h-10 w-10 items-center justify-center rounded-full bg-white/80 text-slate-900 shadow hover:bg-white sm:top-1/2 sm:bottom-auto sm:left-4 sm:-translate-y-1/2"
          >
            <ChevronLeftIcon size={22} />
          </button>
          <button
            type="button"
            onClick={() => go(1)}
            aria-controls={`${id}-slides`}
            aria-label="Bannière suivante"
            className="absolute right-2 bottom-2 flex h-10 w-10 items-center justify-center rounded-full bg-white/80 text-slate-900 shadow hover:bg-white sm:top-1/2 sm:right-4 sm:bottom-auto sm:-translate-y-1/2"
          >
            <ChevronRightIcon size={22} />
          </button>
          <div className="absolute inset-x-14 bottom-2 flex items-center justify-center gap-1 sm:inset-x-0 sm:bottom-3">
            <button
              type="button"
              onClick={() => setStopped((s) => !s)}
              aria-label={stopped ? 'Reprendre le défilement' : 'Mettre en pause le défilement'}
              className="mr-1 flex h-8 w-8 items-center justify-center rounded-full bg-black/30 text-white hover:bg-black/50"
            >
              {stopped ? <PlayIcon size={14} /> : <PauseIcon size={14} />}
            </button>
            {slides.map((banner, i) => (
              <button
                key={banner.key}
                type="button"
                onClick={() => setIndex(i)}
                aria-label={`Afficher la bannière ${i + 1}`}
                aria-current={i === current ? 'true' : undefined}
                className="flex h-8 w-8 items-center justify-center"
              >
                <span
                  className={cn(
                    'block h-2.5 rounded-full transition-all',
                    i === current ? 'w-6 bg-white' : 'w-2.5 bg-white/60',
                    !builtIn && banners.data?.[i]?.color === 'light' && 'ring-1 ring-slate-900/30',
                  )}
                />
              </button>
            ))}
          </div>
        </>
      ) : null}
    </section>
  );
}

/**
 * A path of this site is followed inside the app; an https address opens as an external link
 * (the rule of the contract's bannerLinkKind, kept here so the home page does not load zod);
 * anything else (//host, /\host, javascript:…) is not a link at all.
 */
function BannerLink({ href, className, text }: { href: string; className: string; text: string }) {
  const internal = sameSitePath(href);
  if (internal) {
    return (
      <Link to={internal} className={className}>
        {text}
      </Link>
    );
  }
  if (/^https:\/\/[^/\\\s]+/i.test(href)) {
    return (
      <a href={href} className={className} rel="noopener noreferrer">
        {text}
      </a>
    );
  }
  return <span className={className}>{text}</span>;
}
