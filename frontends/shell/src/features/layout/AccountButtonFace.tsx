import { Avatar, ChevronDownIcon, cn, type User } from '@cartable/ui';

/** Avatar, name (wide screens) and chevron: the face of the account button. */
export function AccountButtonFace({ user, open }: { user: User; open: boolean }) {
  return (
    <>
      <Avatar name={user.name} image={user.profile_image} size={null} className="h-9 w-9 text-sm" />
      <span className="hidden max-w-32 truncate text-sm font-medium lg:inline">{user.name}</span>
      <ChevronDownIcon size={16} className={cn('transition-transform', open && 'rotate-180')} />
    </>
  );
}
