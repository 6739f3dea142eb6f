/** "Ana Lima" → "AL"; what an avatar shows without a picture. */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).slice(0, 2);
  return parts.map((p) => [...p][0]?.toUpperCase() ?? '').join('') || '?';
}
