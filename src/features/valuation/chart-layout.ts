/**
 * Lays out dots along one axis so none overlaps another (a simple beeswarm): each dot, in order of
 * position, takes the lowest lane where it clears every dot already there by `gap` pixels. Lane 0 is
 * the axis; lanes alternate above and below it (1 → above, 2 → below, 3 → further above…).
 */
export function swarmLanes(xs: number[], gap: number): number[] {
  const order = xs.map((x, i) => ({ x, i })).sort((a, b) => a.x - b.x)
  const lastInLane: number[] = []
  const lanes = new Array<number>(xs.length).fill(0)
  for (const { x, i } of order) {
    let lane = 0
    while (lastInLane[lane] !== undefined && x - (lastInLane[lane] as number) < gap) lane += 1
    lastInLane[lane] = x
    lanes[i] = lane
  }
  return lanes
}

/** Lane → vertical offset in lane heights: 0, −1, +1, −2, +2… (up is negative in SVG). */
export function laneOffset(lane: number): number {
  return lane === 0 ? 0 : lane % 2 === 1 ? -Math.ceil(lane / 2) : lane / 2
}

/**
 * Moves points that sit closer than `minPx` to an earlier one around it on a small circle, so markers
 * of several sales of one house, or of next-door houses, can each be seen and clicked. Points are in
 * screen pixels; the first point of a group keeps its place.
 */
export function spreadPoints(points: [number, number][], minPx: number): [number, number][] {
  const placed: [number, number][] = []
  for (const [x, y] of points) {
    let spot: [number, number] = [x, y]
    for (let k = 0; k < 48 && placed.some(([px, py]) => Math.hypot(px - spot[0], py - spot[1]) < minPx); k++) {
      // A widening spiral: six places a ring, each ring one marker further out.
      const ring = Math.floor(k / 6) + 1
      const angle = (k % 6) * (Math.PI / 3) + ring * 0.5
      spot = [x + Math.cos(angle) * minPx * ring, y + Math.sin(angle) * minPx * ring]
    }
    placed.push(spot)
  }
  return placed
}
