import type { IconProps } from '@cartable/ui';

/** Catalogue-only icons, drawn like @cartable/ui's (24×24 stroke, decorative). */
function Stroke({ paths, size = 20, ...props }: IconProps & { paths: readonly string[] }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {paths.map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}

const HEART =
  'M19 14c1.5-1.5 3-3.2 3-5.5A5.5 5.5 0 0 0 16.5 3c-1.8 0-3 .5-4.5 2-1.5-1.5-2.7-2-4.5-2A5.5 5.5 0 0 0 2 8.5c0 2.3 1.5 4 3 5.5l7 7z';

export const HeartIcon = ({ filled, ...props }: IconProps & { filled?: boolean }) => (
  <Stroke paths={[HEART]} fill={filled ? 'currentColor' : 'none'} {...props} />
);
export const GridIcon = (props: IconProps) => (
  <Stroke paths={['M3 3h7v7H3z', 'M14 3h7v7h-7z', 'M14 14h7v7h-7z', 'M3 14h7v7H3z']} {...props} />
);
export const ListIcon = (props: IconProps) => (
  <Stroke paths={['M8 6h13', 'M8 12h13', 'M8 18h13', 'M3 6h.01', 'M3 12h.01', 'M3 18h.01']} {...props} />
);
export const FilterIcon = (props: IconProps) => <Stroke paths={['M22 3H2l8 9.5V19l4 2v-8.5z']} {...props} />;
export const ZoomInIcon = (props: IconProps) => (
  <Stroke paths={['M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16z', 'm21 21-4.3-4.3', 'M11 8v6', 'M8 11h6']} {...props} />
);
export const ZoomOutIcon = (props: IconProps) => (
  <Stroke paths={['M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16z', 'm21 21-4.3-4.3', 'M8 11h6']} {...props} />
);
export const ExpandIcon = (props: IconProps) => (
  <Stroke paths={['M15 3h6v6', 'M9 21H3v-6', 'M21 3l-7 7', 'M3 21l7-7']} {...props} />
);
export const PencilIcon = (props: IconProps) => (
  <Stroke paths={['M17 3a2.8 2.8 0 1 1 4 4L7.5 20.5 2 22l1.5-5.5z', 'm15 5 4 4']} {...props} />
);
export const StarIcon = ({ filled, ...props }: IconProps & { filled?: boolean }) => (
  <Stroke
    paths={['m12 2 3.1 6.3 6.9 1-5 4.9 1.2 6.8L12 17.8 5.8 21l1.2-6.8-5-4.9 6.9-1z']}
    fill={filled ? 'currentColor' : 'none'}
    {...props}
  />
);
export const PauseIcon = (props: IconProps) => <Stroke paths={['M7 4h3v16H7z', 'M14 4h3v16h-3z']} {...props} />;
export const PlayIcon = (props: IconProps) => <Stroke paths={['M6 4l14 8-14 8z']} {...props} />;
export const TagIcon = (props: IconProps) => (
  <Stroke paths={['M20.6 13.4 13.4 20.6a2 2 0 0 1-2.8 0L2 12V2h10l8.6 8.6a2 2 0 0 1 0 2.8z', 'M7 7h.01']} {...props} />
);
export const GiftIcon = (props: IconProps) => (
  <Stroke
    paths={[
      'M20 12v10H4V12',
      'M2 7h20v5H2z',
      'M12 22V7',
      'M12 7H7.5a2.5 2.5 0 0 1 0-5C11 2 12 7 12 7z',
      'M12 7h4.5a2.5 2.5 0 0 0 0-5C13 2 12 7 12 7z',
    ]}
    {...props}
  />
);
export const QuoteIcon = (props: IconProps) => (
  <Stroke paths={['M3 21c3 0 7-1 7-8V5H3v7h4', 'M14 21c3 0 7-1 7-8V5h-7v7h4']} {...props} />
);
export const TreeIcon = (props: IconProps) => (
  <Stroke paths={['M3 3h6v6H3z', 'M15 15h6v6h-6z', 'M15 3h6v6h-6z', 'M6 9v9h9', 'M9 6h6']} {...props} />
);
