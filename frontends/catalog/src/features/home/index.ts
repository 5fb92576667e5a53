/** The home page (first screen of the site: not lazy). */
export { default as HomePage } from './HomePage';
