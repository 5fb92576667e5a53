/** Favourites (SPEC section 4): the heart on a book, ids kept in the browser. */
export { FavouriteButton, type FavouriteButtonProps } from './FavouriteButton';
export { toggleFavourite, useFavouriteIds } from './store';
