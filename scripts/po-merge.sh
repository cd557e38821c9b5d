#!/usr/bin/env bash
# A git merge driver for the catalogues (docs/translations.md): two branches that each added messages
# to a .po merge to the union of both, this branch's translation first where both wrote one.
# Enable it once per clone:
#   git config merge.po-union.driver 'scripts/po-merge.sh %O %A %B'
# then `scripts/messages.sh update` makes the catalogue follow the code again.
set -euo pipefail
base=$1 ours=$2 theirs=$3
merged=$(mktemp)
msgcat --use-first --no-wrap "$ours" "$theirs" -o "$merged"
# A message both sides translated differently would be marked fuzzy by msgcat: keep ours, unmarked.
mv "$merged" "$ours"
: "$base"
