// The fields of `wp settings update|replace --json`.
export const SETTINGS_FIELDS = ['settings', 'success', 'integration'];
