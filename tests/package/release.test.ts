// The release script's pure steps (scripts/release-steps.ts): the next version, and the CHANGELOG
// section it writes in Keep a Changelog's form.
import assert from "node:assert/strict";
import { test } from "node:test";
import { nextVersion, releaseChangelog } from "../../scripts/release-steps.ts";

test("a bump by name resets the lower parts; an explicit version must be higher", () => {
  assert.equal(nextVersion("0.1.0", "patch"), "0.1.1");
  assert.equal(nextVersion("0.1.7", "minor"), "0.2.0");
  assert.equal(nextVersion("0.9.3", "major"), "1.0.0");
  assert.equal(nextVersion("0.1.0", "0.3.0"), "0.3.0");
  assert.throws(() => nextVersion("0.2.0", "0.1.9"), /not higher/);
  assert.throws(() => nextVersion("0.2.0", "0.2.0"), /not higher/);
  assert.throws(() => nextVersion("0.2.0", "next"), /patch, minor, major/);
  assert.throws(() => nextVersion("0.2.0-beta", "patch"), /not x\.y\.z/);
});

const CHANGELOG = `# Changelog

Intro.

## [Unreleased]

### Fixed

- A bug.

## [0.1.0] - 2026-11-25

### Added

- Everything.
`;

test("a release moves the Unreleased entries under the new version and date, and leaves Unreleased empty", () => {
  const released = releaseChangelog(CHANGELOG, "0.1.1", "2026-12-01");
  assert.equal(
    released,
    `# Changelog

Intro.

## [Unreleased]

## [0.1.1] - 2026-12-01

### Fixed

- A bug.

## [0.1.0] - 2026-11-25

### Added

- Everything.
`,
  );
  assert.throws(() => releaseChangelog(released, "0.1.2", "2026-12-02"), /Unreleased section is empty/);
  assert.throws(() => releaseChangelog(CHANGELOG, "0.1.0", "2026-12-02"), /already has a section for 0\.1\.0/);
  assert.throws(() => releaseChangelog("# Changelog\n", "0.1.1", "2026-12-02"), /no ## \[Unreleased\]/);
});

test("the repository's CHANGELOG.md has an Unreleased section and a 0.1.0 entry in that form", async () => {
  const { readFileSync } = await import("node:fs");
  const text = readFileSync(new URL("../../CHANGELOG.md", import.meta.url), "utf8");
  assert.match(text, /^## \[Unreleased\]$/m);
  assert.match(text, /^## \[0\.1\.0\] - \d{4}-\d{2}-\d{2}$/m);
});
