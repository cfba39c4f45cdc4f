// Date-times of the API as instants: document 1, Common conventions 3, "Fields of type date-time are strings in a
// combined date and time format; samples carry no zone suffix."

/** A date-time of the API (no zone in the documents' samples: read as UTC) in milliseconds. */
export function timeOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`);
  return Number.isNaN(time) ? undefined : time;
}
