import { cn, initials, profileImageUrl } from '@cartable/ui';

const SIZES = { sm: 'h-8 w-8 text-xs', md: 'h-10 w-10 text-sm', lg: 'h-12 w-12 text-base' } as const;
const PIXELS = { sm: 32, md: 40, lg: 48 } as const;

/** A member's photo, or their initials on a green disc (decorative: the name is always beside it). */
export function Avatar({
  name,
  image,
  size = 'md',
  className,
}: {
  name: string | null | undefined;
  image: string | null | undefined;
  size?: keyof typeof SIZES;
  className?: string;
}) {
  const src = profileImageUrl(image);
  if (src) {
    return (
      <img
        src={src}
        alt=""
        width={PIXELS[size]}
        height={PIXELS[size]}
        loading="lazy"
        decoding="async"
        className={cn('shrink-0 rounded-full bg-slate-100 object-cover', SIZES[size], className)}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex shrink-0 items-center justify-center rounded-full bg-primary-100 font-bold text-primary-800',
        SIZES[size],
        className,
      )}
    >
      {initials(name, '?')}
    </span>
  );
}
