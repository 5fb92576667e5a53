import { setDataSaver } from '@cartable/ui';
import { renderScreen } from '@cartable/ui/testing';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { BookCard } from '../src/entities/book/BookCard';
import { ImageGallery } from '../src/features/book/ImageGallery';
import { aBook } from './fixtures';

/** With « Économie de données », a photo costs nothing until it is asked for. */
afterEach(() => setDataSaver('auto'));

const photo = { slot: 1, url: '/storage/b/12/display.webp', thumbnail_url: '/storage/b/12/thumb.webp' };

describe('data saver', () => {
  it('draws a card without its photo until « Voir la photo » is tapped', async () => {
    setDataSaver('on');
    const { container } = renderScreen(<BookCard book={aBook({ thumbnail: photo.thumbnail_url })} />);
    expect(container.querySelector('img')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Voir la photo' }));
    expect(container.querySelector('img')?.getAttribute('src')).toBe(photo.thumbnail_url);
  });

  it('shows the card’s thumbnail at once when the phone does not save data', () => {
    const { container } = renderScreen(<BookCard book={aBook({ thumbnail: photo.thumbnail_url })} />);
    expect(container.querySelector('img')?.getAttribute('src')).toBe(photo.thumbnail_url);
    expect(screen.queryByRole('button', { name: 'Voir la photo' })).toBeNull();
  });

  it('shows the book page’s thumbnail only, never the large photo’s srcset', () => {
    setDataSaver('on');
    const { container } = renderScreen(<ImageGallery images={[photo]} title="Maths 6e" />);
    const image = container.querySelector('img');
    expect(image?.getAttribute('src')).toBe(photo.thumbnail_url);
    expect(image?.getAttribute('srcset')).toBeNull();
  });
});
