/** Commander's collector for a repeatable flag (`--allow-read A --allow-read B`): every value, in order. */
export function collectRepeated(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
