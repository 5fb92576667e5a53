import type { ReactNode } from 'react';

/** Full height under the sticky header (4 rem): the list scrolls, the composer stays at the bottom. */
export function ThreadFrame({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto flex h-[calc(100dvh-4rem)] w-full max-w-3xl flex-col bg-slate-50 sm:px-4 sm:py-4">
      <div className="flex min-h-0 flex-1 flex-col overflow-hidden bg-white sm:rounded-xl sm:border sm:border-slate-200 sm:shadow-sm">
        {children}
      </div>
    </div>
  );
}
