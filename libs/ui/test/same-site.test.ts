import { describe, expect, it } from 'vitest';
import { sameSitePath } from '../src/same-site.ts';

const origin = 'https://cartable.ga';

describe('sameSitePath', () => {
  it('keeps a path of this site with its query and hash', () => {
    expect(sameSitePath('/books/42?tab=avis#commentaires', origin)).toBe('/books/42?tab=avis#commentaires');
  });
  it('refuses anything that would leave the site or is not a path', () => {
    for (const raw of [
      '//evil.example',
      '/\\evil.example',
      '/\\/evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      '/%0d%0aevil',
      '/a\u0000b',
      '',
      null,
    ]) {
      const result = sameSitePath(raw, origin);
      expect(result === null || result.startsWith('/'), String(raw)).toBe(true);
      if (raw && !raw.startsWith('/%')) expect(result, String(raw)).toBeNull();
    }
  });
});
