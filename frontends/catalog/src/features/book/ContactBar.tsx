import { Button, MessageIcon, useToastsAboveBar } from '@cartable/ui';
import { useRef } from 'react';
import { Price } from '../../entities/book/BookCard';
import { truncate } from '../../shared/books';

/** A phone's bar at the bottom: the listing's price and « Contacter », always at hand. */
export function ContactBar({ title, price, onContact }: { title: string; price: number; onContact: () => void }) {
  const bar = useRef<HTMLDivElement>(null);
  useToastsAboveBar(bar);
  return (
    <div
      ref={bar}
      className="fixed inset-x-0 bottom-0 z-30 flex items-center gap-3 border-t border-slate-200 bg-white/95 px-4 py-3 shadow-[0_-4px_12px_rgba(0,0,0,0.06)] backdrop-blur lg:hidden"
    >
      <div className="min-w-0 flex-1">
        <p className="truncate text-xs text-slate-600">{truncate(title, 40)}</p>
        <Price value={price} className="text-lg" />
      </div>
      <Button leftIcon={<MessageIcon size={18} />} onClick={onContact}>
        Contacter
      </Button>
    </div>
  );
}
