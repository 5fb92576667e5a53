import { BelowFold } from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import type { ReactNode } from 'react';

const COLUMN = 'mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8';

/** A section's column; `belowFold`: rendered after the first screen's paint (BelowFold). */
export function Wrapper({ children, belowFold = false }: { children: ReactNode; belowFold?: boolean }) {
  if (belowFold) return <BelowFold className={COLUMN}>{children}</BelowFold>;
  return <div className={COLUMN}>{children}</div>;
}

/** A home section's title, with a link to see more. */
export function SectionHeading({
  id,
  title,
  link,
}: {
  id: string;
  title: string;
  link?: { to: string; label: string };
}) {
  return (
    <div className="mb-5 flex items-end justify-between gap-3">
      <h2 id={id} className="text-xl font-bold text-slate-900 sm:text-2xl">
        {title}
      </h2>
      {link ? (
        <Link to={link.to} className="shrink-0 text-sm font-semibold text-primary-700 hover:underline">
          {link.label}
        </Link>
      ) : null}
    </div>
  );
}
