// Extra WordPress users for the end-to-end suite, made through the REST API with the admin's Application
// Password: an Author (publish_posts, upload_files, edit_posts, but not manage_categories) with an
// Application Password of its own.
import { randomBytes } from 'node:crypto';
import { WordPressClient } from '../../src/wordpress/client.js';
import type { WordPressInstance } from './instances.js';

export interface ExtraUser {
  username: string;
  appPassword: string;
}

/** A new Author named `login` (unique per run: instances may be reused between runs). */
export async function createAuthor(wp: WordPressInstance, login: string): Promise<ExtraUser> {
  const admin = new WordPressClient(
    { websiteUrl: wp.baseUrl, username: wp.username, password: wp.appPassword },
    { timeoutMs: 30_000 },
  );
  try {
    const user = await admin.route('wp/v2/users', {
      method: 'POST',
      json: {
        username: login,
        email: `${login}@example.com`,
        // Never used: REST Basic auth takes only Application Passwords.
        password: randomBytes(16).toString('hex'),
        roles: ['author'],
      },
      label: `create the Author "${login}"`,
    });
    const { id } = user.body as { id: number };
    const app = await admin.route(`wp/v2/users/${id}/application-passwords`, {
      method: 'POST',
      json: { name: 'blogctl-e2e-author' },
      label: `create an Application Password for "${login}"`,
    });
    return { username: login, appPassword: (app.body as { password: string }).password };
  } finally {
    await admin.close();
  }
}
