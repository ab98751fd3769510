/** Counts as people read them in activity details and messages: "1 task", "2 tasks", "1 cent". */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** An amount of US cents: "1 cent", "50 cents". */
export const centsText = (cents: number): string => plural(cents, 'cent');
