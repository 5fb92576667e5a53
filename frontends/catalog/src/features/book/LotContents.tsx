import { Card } from '@cartable/ui';
import type { LotItem } from '../../shared/books';

/** The books a lot holds, in the order of their class list. */
export function LotContents({ items }: { items: LotItem[] }) {
  return (
    <section aria-labelledby="lot-title" data-testid="lot-contents">
      <Card className="p-4">
        <h2 id="lot-title" className="font-semibold text-slate-900">
          Ce lot contient {items.length} manuels
        </h2>
        <ol className="mt-2 space-y-2">
          {items.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a lot's books never change nor move once listed
            <li key={index} className="text-sm">
              <span className="font-medium text-slate-900">{item.title}</span>
              <span className="block text-slate-600">
                {[item.subject?.name, item.author, item.publisher, item.year, item.isbn ? `ISBN ${item.isbn}` : null]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            </li>
          ))}
        </ol>
        <p className="mt-3 text-sm text-slate-600">Le prix est celui du lot entier.</p>
      </Card>
    </section>
  );
}
