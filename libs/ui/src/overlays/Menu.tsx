import { cn } from '@cartable/ui';
import * as MenuPrimitive from '@radix-ui/react-dropdown-menu';
import type { ComponentProps } from 'react';

/**
 * Menus on Radix UI's DropdownMenu primitive (the menu button pattern): the trigger carries
 * aria-haspopup, aria-expanded and aria-controls; the items are `menuitem`s reached with the arrow
 * keys, Home, End and typeahead; Escape and a click outside close it and focus returns to the
 * trigger. Non-modal: the page stays usable while a menu is open.
 */
export function Menu(props: Omit<ComponentProps<typeof MenuPrimitive.Root>, 'modal'>) {
  return <MenuPrimitive.Root modal={false} {...props} />;
}

export const MenuTrigger = MenuPrimitive.Trigger;

/** The list of items, under its trigger (aligned to its end by default), named by `aria-label`. */
export function MenuContent({
  className,
  align = 'end',
  sideOffset = 8,
  ...props
}: ComponentProps<typeof MenuPrimitive.Content> & { 'aria-label': string }) {
  return (
    <MenuPrimitive.Portal>
      <MenuPrimitive.Content
        align={align}
        sideOffset={sideOffset}
        // Named by its own label ("Mon compte"), not by the trigger Radix would point at.
        aria-labelledby={undefined}
        className={cn(
          'z-50 w-64 overflow-hidden rounded-xl border border-slate-200 bg-white py-1 shadow-lg focus:outline-none',
          className,
        )}
        {...props}
      />
    </MenuPrimitive.Portal>
  );
}

export const MENU_ITEM_CLASSES =
  'flex w-full cursor-pointer items-center gap-2 px-4 py-2.5 text-left text-sm text-slate-700 outline-none hover:bg-slate-50 data-[highlighted]:bg-primary-50 data-[highlighted]:text-primary-800';

/** An item; `asChild` makes a router link the item itself. */
export function MenuItem({ className, ...props }: ComponentProps<typeof MenuPrimitive.Item>) {
  return <MenuPrimitive.Item className={cn(MENU_ITEM_CLASSES, className)} {...props} />;
}

export function MenuSeparator({ className, ...props }: ComponentProps<typeof MenuPrimitive.Separator>) {
  return <MenuPrimitive.Separator className={cn('my-1 h-px bg-slate-100', className)} {...props} />;
}

export const MenuGroup = MenuPrimitive.Group;
