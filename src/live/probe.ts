/**
 * A test hook: counts of what a session's renders visit, so that a test can show what an event
 * leaves alone (an unchanged `Ui.each` row is not built, an unchanged subtree is not walked or
 * compared, an id look-up does not scan a long list). It is passed in the render's context (the
 * session memo, the id walk, the diff, the id look-up), never kept in module state, and a render
 * without one counts nothing.
 */
export type RenderProbe = {
  /** `Ui.each` rows built. */
  built: number;
  /** Elements the id walk resolved (not those it took as one object from the previous render). */
  walked: number;
  /** Pairs of kids the diff compared below the root (not those it skipped as one object). */
  compared: number;
  /** Kids an id look-up looked at. */
  looked: number;
};

/** A probe with every count at 0. */
export function renderProbe(): RenderProbe {
  return { built: 0, walked: 0, compared: 0, looked: 0 };
}
