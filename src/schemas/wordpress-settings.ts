// The WordPress settings update (spec 2.2, 4.1): what `wp settings update|replace` send and the service
// answers.
import * as z from 'zod/mini';
import { httpUrl } from './url.js';
import { nonEmpty } from './wordpress.js';

/** Settings update: every member optional. */
export const partialCredentials = z.strictObject({
  websiteUrl: z.optional(httpUrl()),
  username: z.optional(nonEmpty()),
  password: z.optional(nonEmpty()),
});
export type PartialCredentials = z.infer<typeof partialCredentials>;

/** IntegrationWordPress in its typed shape (used when replacing the list): `id` required. */
export const siteIntegration = z.strictObject({
  id: nonEmpty(),
  label: z.optional(z.string()),
  isIntegrated: z.optional(z.boolean()),
  isWebsiteValid: z.optional(z.boolean()),
  autoPublish: z.optional(z.boolean()),
  credentials: z.optional(partialCredentials),
});
export type SiteIntegration = z.infer<typeof siteIntegration>;

/** A single-object settings update: every field optional, `id` included. */
export const siteIntegrationPatch = z.strictObject({
  id: z.optional(nonEmpty()),
  label: z.optional(z.string()),
  isIntegrated: z.optional(z.boolean()),
  isWebsiteValid: z.optional(z.boolean()),
  autoPublish: z.optional(z.boolean()),
  credentials: z.optional(partialCredentials),
});
export type SiteIntegrationPatch = z.infer<typeof siteIntegrationPatch>;

export const updateSettingsRequest = z.strictObject({
  settings: z.union([siteIntegrationPatch, z.array(siteIntegration)]),
});
export type UpdateSettingsRequest = z.infer<typeof updateSettingsRequest>;

/** What the service answers; lenient, since it may add fields. Passwords are never expected back. */
const siteIntegrationOut = z.looseObject({
  id: z.optional(z.string()),
  label: z.optional(z.string()),
  isIntegrated: z.optional(z.boolean()),
  isWebsiteValid: z.optional(z.boolean()),
  autoPublish: z.optional(z.boolean()),
  credentials: z.optional(z.looseObject({})),
});
export const updateSettingsResponse = z.looseObject({
  success: z.boolean(),
  integration: z.optional(z.union([siteIntegrationOut, z.array(siteIntegrationOut)])),
});
export type UpdateSettingsResponse = z.infer<typeof updateSettingsResponse>;
