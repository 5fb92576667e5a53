import { lazy } from 'react';

/** Favourites (SPEC section 4): the heart on a book, kept on the account, and « Mes favoris ». */
export { FavouriteButton, type FavouriteButtonProps } from './FavouriteButton';
export { toggleFavourite, useFavouriteIds, useFavouritesSync } from './store';
export const FavouritesPage = lazy(() => import('./FavouritesPage'));
