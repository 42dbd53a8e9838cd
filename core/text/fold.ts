/**
 * Folds Vietnamese text for search (DOMAIN.md): NFD, strip combining marks, đ→d, lowercase, collapse
 * spaces. Matches the database's vn_fold() so client-side filtering agrees with the server.
 */
export function foldVietnamese(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
}
