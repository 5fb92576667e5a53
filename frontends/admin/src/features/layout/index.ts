/** The back office's frame: sidebar menu (by permission), top bar, mobile drawer. */
export { AdminLayout } from './AdminLayout';
export { MENU, type MenuEntry, visibleMenu } from './menu';
