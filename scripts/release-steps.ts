/** The pure steps of a release (scripts/release.ts): the next version and the CHANGELOG's new section. */

export type Bump = "patch" | "minor" | "major";

const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;

/** The version after `current`: a bump by name, or an explicit x.y.z that must be higher. */
export function nextVersion(current: string, bump: string): string {
  const now = SEMVER.exec(current);
  if (now === null) throw new Error(`the current version ${JSON.stringify(current)} is not x.y.z`);
  const [major, minor, patch] = now.slice(1).map(Number) as [number, number, number];
  if (bump === "major") return `${major + 1}.0.0`;
  if (bump === "minor") return `${major}.${minor + 1}.0`;
  if (bump === "patch") return `${major}.${minor}.${patch + 1}`;
  const wanted = SEMVER.exec(bump);
  if (wanted === null) throw new Error(`give patch, minor, major or a version x.y.z, not ${JSON.stringify(bump)}`);
  const [a, b, c] = wanted.slice(1).map(Number) as [number, number, number];
  const higher = a !== major ? a > major : b !== minor ? b > minor : c > patch;
  if (!higher) throw new Error(`${bump} is not higher than the current version ${current}`);
  return bump;
}

/**
 * Moves the entries under "## [Unreleased]" into a new "## [version] - date" section below it
 * (Keep a Changelog), leaving Unreleased empty. Refuses a release with no entries, or a version
 * the changelog already has.
 */
export function releaseChangelog(text: string, version: string, date: string): string {
  const heading = /^## \[Unreleased\][^\n]*\n/m.exec(text);
  if (heading === null) throw new Error("CHANGELOG.md has no ## [Unreleased] section");
  if (new RegExp(`^## \\[${version.replaceAll(".", "\\.")}\\]`, "m").test(text)) {
    throw new Error(`CHANGELOG.md already has a section for ${version}`);
  }
  const start = heading.index + heading[0].length;
  const next = text.slice(start).search(/^## \[/m);
  const end = next === -1 ? text.length : start + next;
  const entries = text.slice(start, end).trim();
  if (entries === "") throw new Error("CHANGELOG.md's Unreleased section is empty: nothing to release");
  return `${text.slice(0, start)}\n## [${version}] - ${date}\n\n${entries}\n\n${text.slice(end)}`;
}
