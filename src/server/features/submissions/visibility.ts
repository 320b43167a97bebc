/** Statuses anyone may see; pending and rejected videos are seen by their author and admins only. */
export const PUBLIC_STATUSES = ['approved', 'winner'] as const;
