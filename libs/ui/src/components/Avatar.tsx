import { cn } from '../cn';
import { initials, profileImageUrl } from '../format';

const SIZES = { sm: 'h-8 w-8 text-xs', md: 'h-10 w-10 text-sm', lg: 'h-12 w-12 text-base' } as const;
const PIXELS = { sm: 32, md: 40, lg: 48 } as const;

export interface AvatarProps {
  name: string | null | undefined;
  /** The stored profile image (see profileImageUrl); the initials when there is none. */
  image: string | null | undefined;
  /** A preset size, or null to size it with `className` alone. */
  size?: keyof typeof SIZES | null;
  /** Text of the photo; empty (decorative) by default, as the name is written beside it. */
  alt?: string;
  className?: string;
}

/** A member's photo, or their initials on a green disc (decorative by default). */
export function Avatar({ name, image, size = 'md', alt = '', className }: AvatarProps) {
  const src = profileImageUrl(image);
  const sizing = size ? SIZES[size] : undefined;
  if (src) {
    return (
      <img
        src={src}
        alt={alt}
        width={size ? PIXELS[size] : undefined}
        height={size ? PIXELS[size] : undefined}
        loading="lazy"
        decoding="async"
        className={cn('shrink-0 rounded-full bg-slate-100 object-cover', sizing, className)}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex shrink-0 items-center justify-center rounded-full bg-primary-100 font-bold text-primary-800',
        sizing,
        className,
      )}
    >
      {initials(name, '?')}
    </span>
  );
}
