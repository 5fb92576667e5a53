/** The site frame: header (navigation, envelope, account menu), footer, skip link. */
export { SiteLayout } from './SiteLayout';
