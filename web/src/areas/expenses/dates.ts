const DAY = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A YYYY-MM-DD as people read it; formatted in UTC so no browser zone moves the day. */
export const dateLabel = (date: string) => DAY.format(new Date(`${date}T00:00:00Z`));
