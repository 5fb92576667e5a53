import type { SVGProps } from 'react';

export type IconProps = SVGProps<SVGSVGElement> & { size?: number };

/** Small stroke icon on a 24×24 grid, decorative by default (aria-hidden). */
function StrokeIcon({ paths, size = 20, ...props }: IconProps & { paths: readonly string[] }) {
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

export const MailIcon = (props: IconProps) => <StrokeIcon paths={['M3 6h18v12H3z', 'm3 7 9 6 9-6']} {...props} />;
export const MenuIcon = (props: IconProps) => <StrokeIcon paths={['M4 6h16', 'M4 12h16', 'M4 18h16']} {...props} />;
export const CloseIcon = (props: IconProps) => <StrokeIcon paths={['M6 6l12 12', 'M18 6 6 18']} {...props} />;
export const ChevronDownIcon = (props: IconProps) => <StrokeIcon paths={['m6 9 6 6 6-6']} {...props} />;
export const ChevronLeftIcon = (props: IconProps) => <StrokeIcon paths={['m15 18-6-6 6-6']} {...props} />;
export const ChevronRightIcon = (props: IconProps) => <StrokeIcon paths={['m9 18 6-6-6-6']} {...props} />;
export const BookIcon = (props: IconProps) => (
  <StrokeIcon
    paths={['M4 19.5A2.5 2.5 0 0 1 6.5 17H20', 'M6.5 2H20v20H6.5A2.5 2.5 0 0 1 4 19.5v-15A2.5 2.5 0 0 1 6.5 2z']}
    {...props}
  />
);
export const UserIcon = (props: IconProps) => (
  <StrokeIcon paths={['M20 21a8 8 0 0 0-16 0', 'M12 13a5 5 0 1 0 0-10 5 5 0 0 0 0 10z']} {...props} />
);
export const UsersIcon = (props: IconProps) => (
  <StrokeIcon
    paths={[
      'M16 21a6 6 0 0 0-12 0',
      'M10 13a4 4 0 1 0 0-8 4 4 0 0 0 0 8z',
      'M22 21a6 6 0 0 0-4-5.6',
      'M16 5.2a4 4 0 0 1 0 7.6',
    ]}
    {...props}
  />
);
export const EyeIcon = (props: IconProps) => (
  <StrokeIcon
    paths={['M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z', 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z']}
    {...props}
  />
);
export const EyeOffIcon = (props: IconProps) => (
  <StrokeIcon
    paths={[
      'M10.6 5.1A10.8 10.8 0 0 1 12 5c6.5 0 10 7 10 7a17 17 0 0 1-2.2 3.1',
      'M6.6 6.6C3.9 8.4 2 12 2 12s3.5 7 10 7c1.9 0 3.6-.6 5-1.5',
      'M9.9 9.9a3 3 0 0 0 4.2 4.2',
      'M2 2l20 20',
    ]}
    {...props}
  />
);
export const PlusIcon = (props: IconProps) => <StrokeIcon paths={['M12 5v14', 'M5 12h14']} {...props} />;
export const MapPinIcon = (props: IconProps) => (
  <StrokeIcon
    paths={['M20 10c0 6-8 12-8 12s-8-6-8-12a8 8 0 0 1 16 0z', 'M12 13a3 3 0 1 0 0-6 3 3 0 0 0 0 6z']}
    {...props}
  />
);
export const AlertIcon = (props: IconProps) => (
  <StrokeIcon paths={['M12 3 2 21h20L12 3z', 'M12 10v4', 'M12 17.5v.01']} {...props} />
);
export const InfoIcon = (props: IconProps) => (
  <StrokeIcon paths={['M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20z', 'M12 16v-4', 'M12 8h.01']} {...props} />
);
export const CheckCircleIcon = (props: IconProps) => (
  <StrokeIcon paths={['M22 12a10 10 0 1 1-5.9-9.1', 'm9 11 3 3L22 4']} {...props} />
);
export const RefreshIcon = (props: IconProps) => (
  <StrokeIcon
    paths={['M21 12a9 9 0 0 1-15.5 6.3L3 16', 'M3 12a9 9 0 0 1 15.5-6.3L21 8', 'M21 3v5h-5', 'M3 21v-5h5']}
    {...props}
  />
);
export const SearchIcon = (props: IconProps) => (
  <StrokeIcon paths={['M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16z', 'm21 21-4.3-4.3']} {...props} />
);
export const LogOutIcon = (props: IconProps) => (
  <StrokeIcon paths={['M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4', 'm16 17 5-5-5-5', 'M21 12H9']} {...props} />
);
export const DashboardIcon = (props: IconProps) => (
  <StrokeIcon paths={['M3 3h7v9H3z', 'M14 3h7v5h-7z', 'M14 12h7v9h-7z', 'M3 16h7v5H3z']} {...props} />
);
export const BanIcon = (props: IconProps) => (
  <StrokeIcon paths={['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M5.6 5.6l12.8 12.8']} {...props} />
);
export const ShieldIcon = (props: IconProps) => (
  <StrokeIcon paths={['M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z']} {...props} />
);
export const CityIcon = (props: IconProps) => (
  <StrokeIcon
    paths={['M3 21h18', 'M5 21V7l6-4v18', 'M19 21V11l-8-4', 'M9 9h.01', 'M9 13h.01', 'M9 17h.01']}
    {...props}
  />
);
export const LayersIcon = (props: IconProps) => (
  <StrokeIcon paths={['m12 2 10 5-10 5L2 7l10-5z', 'm2 17 10 5 10-5', 'm2 12 10 5 10-5']} {...props} />
);
export const CardIcon = (props: IconProps) => <StrokeIcon paths={['M2 5h20v14H2z', 'M2 10h20']} {...props} />;
export const ReceiptIcon = (props: IconProps) => (
  <StrokeIcon paths={['M4 2v20l3-2 3 2 2-2 2 2 3-2 3 2V2l-3 2-3-2-2 2-2-2-3 2-3-2z', 'M8 8h8', 'M8 12h8']} {...props} />
);
export const WalletIcon = (props: IconProps) => (
  <StrokeIcon paths={['M20 7H5a2 2 0 0 1 0-4h14v4', 'M3 5v14a2 2 0 0 0 2 2h16V7', 'M17 14h.01']} {...props} />
);
export const KeyIcon = (props: IconProps) => (
  <StrokeIcon paths={['M7.5 21a5.5 5.5 0 1 1 3.9-9.4L21 2', 'm16 7 3 3', 'm19 4 2 2']} {...props} />
);
export const ChartIcon = (props: IconProps) => (
  <StrokeIcon paths={['M3 3v18h18', 'M7 16v-4', 'M12 16V8', 'M17 16v-7']} {...props} />
);
export const ImageIcon = (props: IconProps) => (
  <StrokeIcon paths={['M3 3h18v18H3z', 'M9 10a2 2 0 1 0 0-4 2 2 0 0 0 0 4z', 'm21 15-5-5L5 21']} {...props} />
);
export const InboxIcon = (props: IconProps) => (
  <StrokeIcon paths={['M22 12h-6l-2 3h-4l-2-3H2', 'M5.5 5h13L22 12v7H2v-7z']} {...props} />
);
export const MessageIcon = (props: IconProps) => (
  <StrokeIcon paths={['M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z']} {...props} />
);
export const GlobeIcon = (props: IconProps) => (
  <StrokeIcon
    paths={['M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20z', 'M2 12h20', 'M12 2a15 15 0 0 1 0 20 15 15 0 0 1 0-20z']}
    {...props}
  />
);
export const HomeIcon = (props: IconProps) => <StrokeIcon paths={['m3 10 9-7 9 7v11H3z', 'M9 21v-7h6v7']} {...props} />;
export const SwapIcon = (props: IconProps) => (
  <StrokeIcon paths={['M7 4 3 8l4 4', 'M3 8h14', 'm17 20 4-4-4-4', 'M21 16H7']} {...props} />
);
export const HandshakeIcon = (props: IconProps) => (
  <StrokeIcon
    paths={[
      'm11 17 2 2a1 1 0 0 0 3-3',
      'm14 14 2.5 2.5a1 1 0 0 0 3-3l-3.9-3.9a2 2 0 0 0-2.8 0l-.9.9a1 1 0 0 1-3-3l2.8-2.8a3 3 0 0 1 3.6-.5L21 7',
      'M3 7l5-2 4 1',
      'M3 14l4 4',
    ]}
    {...props}
  />
);
export const TrashIcon = (props: IconProps) => (
  <StrokeIcon paths={['M3 6h18', 'M8 6V4h8v2', 'M19 6l-1 14H6L5 6', 'M10 11v6', 'M14 11v6']} {...props} />
);
export const CopyIcon = (props: IconProps) => <StrokeIcon paths={['M9 9h11v11H9z', 'M5 15H4V4h11v1']} {...props} />;
export const DownloadIcon = (props: IconProps) => (
  <StrokeIcon paths={['M12 3v12', 'm7 10 5 5 5-5', 'M5 21h14']} {...props} />
);
export const CameraIcon = (props: IconProps) => (
  <StrokeIcon paths={['M3 8h4l2-3h6l2 3h4v12H3z', 'M12 17a4 4 0 1 0 0-8 4 4 0 0 0 0 8z']} {...props} />
);
export const ClockIcon = (props: IconProps) => (
  <StrokeIcon paths={['M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20z', 'M12 6v6l4 2']} {...props} />
);
export const LockIcon = (props: IconProps) => (
  <StrokeIcon paths={['M5 11h14v10H5z', 'M8 11V7a4 4 0 0 1 8 0v4']} {...props} />
);
export const PhoneIcon = (props: IconProps) => (
  <StrokeIcon
    paths={[
      'M22 16.9v3a2 2 0 0 1-2.2 2 19.8 19.8 0 0 1-8.6-3.1 19.5 19.5 0 0 1-6-6A19.8 19.8 0 0 1 2.1 4.2 2 2 0 0 1 4.1 2h3a2 2 0 0 1 2 1.7c.1 1 .4 1.9.7 2.8a2 2 0 0 1-.5 2.1L8 9.9a16 16 0 0 0 6 6l1.3-1.3a2 2 0 0 1 2.1-.4c.9.3 1.8.6 2.8.7a2 2 0 0 1 1.7 2z',
    ]}
    {...props}
  />
);
export const CalendarIcon = (props: IconProps) => (
  <StrokeIcon paths={['M3 5h18v16H3z', 'M16 3v4', 'M8 3v4', 'M3 10h18']} {...props} />
);

/* Catalogue icons (book listings, gallery, banner, reviews). */
export const HeartIcon = ({ filled, ...props }: IconProps & { filled?: boolean }) => (
  <StrokeIcon
    paths={[
      'M19 14c1.5-1.5 3-3.2 3-5.5A5.5 5.5 0 0 0 16.5 3c-1.8 0-3 .5-4.5 2-1.5-1.5-2.7-2-4.5-2A5.5 5.5 0 0 0 2 8.5c0 2.3 1.5 4 3 5.5l7 7z',
    ]}
    fill={filled ? 'currentColor' : 'none'}
    {...props}
  />
);
export const StarIcon = ({ filled, ...props }: IconProps & { filled?: boolean }) => (
  <StrokeIcon
    paths={['m12 2 3.1 6.3 6.9 1-5 4.9 1.2 6.8L12 17.8 5.8 21l1.2-6.8-5-4.9 6.9-1z']}
    fill={filled ? 'currentColor' : 'none'}
    {...props}
  />
);
export const GridIcon = (props: IconProps) => (
  <StrokeIcon paths={['M3 3h7v7H3z', 'M14 3h7v7h-7z', 'M14 14h7v7h-7z', 'M3 14h7v7H3z']} {...props} />
);
export const ListIcon = (props: IconProps) => (
  <StrokeIcon paths={['M8 6h13', 'M8 12h13', 'M8 18h13', 'M3 6h.01', 'M3 12h.01', 'M3 18h.01']} {...props} />
);
export const FilterIcon = (props: IconProps) => <StrokeIcon paths={['M22 3H2l8 9.5V19l4 2v-8.5z']} {...props} />;
export const ZoomInIcon = (props: IconProps) => (
  <StrokeIcon paths={['M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16z', 'm21 21-4.3-4.3', 'M11 8v6', 'M8 11h6']} {...props} />
);
export const ZoomOutIcon = (props: IconProps) => (
  <StrokeIcon paths={['M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16z', 'm21 21-4.3-4.3', 'M8 11h6']} {...props} />
);
export const ExpandIcon = (props: IconProps) => (
  <StrokeIcon paths={['M15 3h6v6', 'M9 21H3v-6', 'M21 3l-7 7', 'M3 21l7-7']} {...props} />
);
export const PencilIcon = (props: IconProps) => (
  <StrokeIcon paths={['M17 3a2.8 2.8 0 1 1 4 4L7.5 20.5 2 22l1.5-5.5z', 'm15 5 4 4']} {...props} />
);
export const PauseIcon = (props: IconProps) => <StrokeIcon paths={['M7 4h3v16H7z', 'M14 4h3v16h-3z']} {...props} />;
export const PlayIcon = (props: IconProps) => <StrokeIcon paths={['M6 4l14 8-14 8z']} {...props} />;
export const QuoteIcon = (props: IconProps) => (
  <StrokeIcon paths={['M3 21c3 0 7-1 7-8V5H3v7h4', 'M14 21c3 0 7-1 7-8V5h-7v7h4']} {...props} />
);
export const BellIcon = (props: IconProps) => (
  <StrokeIcon paths={['M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9', 'M10.3 21a1.94 1.94 0 0 0 3.4 0']} {...props} />
);
