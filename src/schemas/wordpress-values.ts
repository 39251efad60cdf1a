// The allowed values of WordPress post fields (specification 2.3), without zod: the command tree declares
// them as flag choices, and it is on the start-up path, where zod must not be.
export const postStatuses = ['publish', 'draft', 'pending', 'private', 'future'] as const;
export const postFormats = [
  'standard',
  'aside',
  'chat',
  'gallery',
  'link',
  'image',
  'quote',
  'status',
  'video',
  'audio',
] as const;
export const openClosed = ['open', 'closed'] as const;
export type PostStatus = (typeof postStatuses)[number];
export type PostFormat = (typeof postFormats)[number];
