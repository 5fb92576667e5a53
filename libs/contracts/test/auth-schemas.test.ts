import { describe, expect, it } from 'vitest';
import { registerRequestSchema } from '../src/index.ts';

const valid = {
  name: 'Awa Mba',
  email: 'Awa@Example.ga',
  username: 'awa_mba',
  password: 'Cartable1a',
  password_confirmation: 'Cartable1a',
  country_id: 266,
  city_id: 3,
};

const errorsOf = (input: unknown) => {
  const result = registerRequestSchema.safeParse(input);
  return result.success ? {} : result.error.flatten().fieldErrors;
};

describe('register rules (SPEC.md section 5)', () => {
  it('accepts a valid registration and lower-cases the e-mail', () => {
    expect(registerRequestSchema.parse(valid).email).toBe('awa@example.ga');
  });

  it.each([
    ['name', '', 'Le nom est obligatoire'],
    ['name', 'A', 'Le nom doit contenir au moins 2 caractères'],
    ['name', 'Super Admin', 'Ce nom contient un mot réservé, veuillez en choisir un autre'],
    ['email', 'awa', "Format d'email invalide"],
    ['username', 'ab', 'Le pseudonyme doit contenir au moins 3 caractères'],
    ['username', 'a'.repeat(21), 'Le pseudonyme ne peut pas dépasser 20 caractères'],
    ['username', 'awa-mba', 'Le pseudonyme doit contenir uniquement des lettres, chiffres et underscore'],
    ['username', 'root', 'Ce pseudonyme contient un mot réservé, veuillez en choisir un autre'],
    ['password', 'Court1', 'Le mot de passe doit contenir au moins 8 caractères'],
    ['password', 'toutminuscule1', 'Le mot de passe doit contenir au moins une minuscule, une majuscule et un chiffre'],
  ])('%s = %j gives %s', (field, value, message) => {
    const errors = errorsOf({
      ...valid,
      [field]: value,
      password_confirmation: field === 'password' ? value : valid.password,
    });
    expect(errors[field as keyof typeof errors]).toContain(message);
  });

  it('requires a matching confirmation, a country and a city', () => {
    expect(errorsOf({ ...valid, password_confirmation: 'Autre1abc' }).password_confirmation).toContain(
      'Les mots de passe ne correspondent pas',
    );
    const { country_id, city_id, ...rest } = valid;
    const errors = errorsOf(rest);
    expect(errors.country_id).toContain('Le pays est obligatoire');
    expect(errors.city_id).toContain('La ville est obligatoire');
  });
});
