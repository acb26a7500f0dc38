#!/usr/bin/env bash
# Publish a release of the Action: check that the tag's dist/ is what its src/ builds, then move the major tag
# (v1 for v1.4.2) to the release's commit, so `uses: <owner>/parlance@v1` runs the newest v1.x.y.
#
#   scripts/release-action.sh v1.4.2 [remote]     (remote: default origin; "none" moves the tag locally only)
#
# Refuses: a tag that is not vMAJOR.MINOR.PATCH, a tag that does not exist, a stale dist/ at the tag, and moving
# the major tag back to an older release than the one it points at (a late patch of an older minor line).
# Set PARLANCE_RELEASE_SKIP_BUILD=1 to skip the rebuild (only when the caller has just checked dist/ itself).
set -euo pipefail
cd "$(dirname "$0")/.."

tag="${1:-}"
remote="${2:-origin}"
if [[ ! "$tag" =~ ^v([0-9]+)\.([0-9]+)\.([0-9]+)$ ]]; then
  echo "release-action: '$tag' is not a release tag: expected vMAJOR.MINOR.PATCH, e.g. v1.4.2" >&2
  exit 2
fi
major="v${BASH_REMATCH[1]}"
commit="$(git rev-parse -q --verify "refs/tags/$tag^{commit}")" || {
  echo "release-action: no tag $tag here (git fetch --tags first)" >&2
  exit 2
}

if [ "${PARLANCE_RELEASE_SKIP_BUILD:-}" != 1 ]; then
  if [ "$(git rev-parse HEAD)" != "$commit" ]; then
    echo "release-action: check out $tag first (HEAD is $(git rev-parse --short HEAD), $tag is ${commit:0:7})" >&2
    exit 2
  fi
  npm run --silent build:action >/dev/null
  if ! git diff --quiet -- dist || [ -n "$(git status --porcelain --untracked-files=all -- dist)" ]; then
    git status --short -- dist >&2
    echo "release-action: dist/ at $tag is not what src/ builds; run 'npm run build:action', commit, and tag again" >&2
    exit 1
  fi
fi

# The major tag moves forward only: never from v1.5.0 back to a later-published v1.4.3.
if current="$(git rev-parse -q --verify "refs/tags/$major^{commit}")"; then
  newest="$(git tag --points-at "$current" --list "$major.*.*" | sort -V | tail -n 1)"
  if [ -n "$newest" ] && [ "$(printf '%s\n%s\n' "$newest" "$tag" | sort -V | tail -n 1)" != "$tag" ]; then
    echo "release-action: $major stays at $newest, which is newer than $tag" >&2
    exit 0
  fi
fi

git tag -f -a "$major" -m "$major → $tag" "$commit" >/dev/null
echo "release-action: $major → $tag (${commit:0:7})"
if [ "$remote" != none ]; then
  git push --force "$remote" "refs/tags/$major"
fi
