/** A moment as the person reads it: their locale's medium date and short time. */
export const formatTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
