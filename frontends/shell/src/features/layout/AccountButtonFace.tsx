import { Avatar, ChevronDownIcon, cn, type User } from '@cartable/ui';

/**
 * Avatar, name (wide screens) and chevron: the face of the account button. Its words are its
 * accessible name, « Menu du compte de <name> », so what a sighted member sees (the name, from
 * 1024 px) is part of what a screen reader says (WCAG 2.5.3); the initials are a picture.
 */
export function AccountButtonFace({ user, open }: { user: User; open: boolean }) {
  return (
    <>
      <span aria-hidden="true">
        <Avatar name={user.name} image={user.profile_image} size={null} className="h-9 w-9 text-sm" />
      </span>
      <span className="sr-only">Menu du compte de </span>
      <span className="sr-only lg:not-sr-only lg:max-w-32 lg:truncate lg:text-sm lg:font-medium">{user.name}</span>
      {/* No chevron on phones: bell, messages, account and menu then fit 360 px at 44 px each. */}
      <ChevronDownIcon size={16} className={cn('hidden transition-transform sm:block', open && 'rotate-180')} />
    </>
  );
}
