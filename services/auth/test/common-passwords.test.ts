import { describe, expect, it } from 'vitest';
import { isCommonPassword } from '../src/domain/common-passwords.ts';

describe('common passwords', () => {
  it('refuses the ones everybody tries first, French favourites with digits included', () => {
    for (const password of [
      'Azerty123',
      'Motdepasse1',
      'Bonjour1',
      'Password1',
      'Soleil2024!',
      'Jetaime1',
      'Libreville1',
      'Qwerty123',
    ]) {
      expect(isCommonPassword(password), password).toBe(true);
    }
  });
  it('lets personal ones through', () => {
    for (const password of ['Cartable1a', 'Nouveau2b', 'Mbolo-Ndong7', 'Tortue2Bleue']) {
      expect(isCommonPassword(password), password).toBe(false);
    }
  });
});
