// A resident's profile, the persona fields the town records and shows: declared once, as zod. The persona
// file's schema (world/persona.ts) is built on it, and the event log's persona record and the inspector's
// payload are its type.
import { z } from 'zod';

/** A persona file's text field. */
export const personaText = z.string().trim().min(1, 'must not be empty');

export const PersonaProfileSchema = z.strictObject({
  name: personaText.describe('Full name.'),
  age: z.number().int().min(1).max(120).describe('Age in years.'),
  innate: z.array(personaText).min(1).max(8).describe('Innate traits, a few words each.'),
  learned: personaText.describe('Background: who they are, what they do (the paper\'s "learned traits").'),
  currently: personaText.describe('What they are doing or focused on right now.'),
  lifestyle: personaText.describe('How they live: sleep, habits.'),
  home: personaText.describe('A sector of the map where the persona sleeps, e.g. "Rivera House".'),
  workplace: personaText.nullable().describe('An arena "Sector: arena", or null.'),
});

/** Name, age, traits, background, status, lifestyle, home and workplace. */
export type PersonaProfile = z.infer<typeof PersonaProfileSchema>;
