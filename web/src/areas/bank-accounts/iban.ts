/** An IBAN as people read it: groups of four ("DE89 3704 0044 0532 0130 00"), as the invoice prints it. */
export const groupedIban = (iban: string) => iban.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
