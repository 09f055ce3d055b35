/** The part of a unit or slot id after the file: `Class.method`; a file id is returned whole. */
export function shortName(id: string): string {
  const hash = id.indexOf('#');
  return hash < 0 ? id : id.slice(hash + 1);
}
