/**
 * @cartable/ui/overlays: dialogs and menus on Radix UI primitives (focus management, Escape,
 * inert background, screen-reader semantics). A federated singleton of its own, never eager: the
 * shell's first load does not carry it; the first screen that opens an overlay loads it once.
 */
export { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog';
export { Dialog, type DialogProps, ModalSurface } from './Dialog';
export { MENU_ITEM_CLASSES, Menu, MenuContent, MenuGroup, MenuItem, MenuSeparator, MenuTrigger } from './Menu';
