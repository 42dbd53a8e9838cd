/** Paths the server answers itself; a navigation there must reach the network, never the app shell. */
export const navigationDenylist = [/^\/api\//, /^\/tiles\//, /^\/builds\//]

export function servesShell(pathname: string): boolean {
  return !navigationDenylist.some((re) => re.test(pathname))
}
