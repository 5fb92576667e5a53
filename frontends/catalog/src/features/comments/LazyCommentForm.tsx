import { Skeleton } from '@cartable/ui';
import { lazy, Suspense } from 'react';
import type { CommentFormProps } from './CommentForm';

const Form = lazy(() => import('./CommentForm').then((m) => ({ default: m.CommentForm })));

/**
 * The comment form, loaded after the book page has shown: its validation (zod, react-hook-form)
 * is not part of the page's first load. The placeholder keeps the form's height.
 */
export function CommentForm(props: CommentFormProps) {
  return (
    <Suspense
      fallback={
        <div className="space-y-2" aria-hidden="true">
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-28 w-full" />
          <Skeleton className="ml-auto h-10 w-28" />
        </div>
      }
    >
      <Form {...props} />
    </Suspense>
  );
}
