import { Skeleton } from '@cartable/ui';
import { lazy, Suspense, useRef, useState } from 'react';
import { useNearScreen } from '../../shared/hooks';
import type { CommentFormProps } from './CommentForm';

const Form = lazy(() => import('./CommentForm').then((m) => ({ default: m.CommentForm })));

/**
 * The comment form, loaded when the reader nears it (or touches its placeholder): its validation
 * (zod, react-hook-form and the contracts, about 100 KiB compressed) is no longer fetched and run
 * while a phone is still drawing the book. The placeholder keeps the form's height.
 */
export function CommentForm(props: CommentFormProps) {
  const placeholder = useRef<HTMLDivElement>(null);
  const near = useNearScreen(placeholder);
  const [asked, setAsked] = useState(false);
  const skeleton = (
    <div
      ref={placeholder}
      className="space-y-2"
      aria-hidden="true"
      onPointerDown={() => setAsked(true)}
      data-testid="comment-form-placeholder"
    >
      <Skeleton className="h-4 w-40" />
      <Skeleton className="h-28 w-full" />
      <Skeleton className="ml-auto h-10 w-28" />
    </div>
  );
  if (!near && !asked) return skeleton;
  return (
    <Suspense fallback={skeleton}>
      <Form {...props} />
    </Suspense>
  );
}
