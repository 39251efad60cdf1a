// The fields of a site profile as `wp sites add|list|show --json` print it (never the password itself).
import { fieldsOf } from '../../../output/json.js';
import type { SiteView } from '../../../sites/profiles.js';

export const SITE_VIEW_FIELDS = fieldsOf<SiteView>({
  id: true,
  url: true,
  username: true,
  label: true,
  autoPublish: true,
  isIntegrated: true,
  isWebsiteValid: true,
  verifiedAt: true,
  password: true,
  default: true,
});
