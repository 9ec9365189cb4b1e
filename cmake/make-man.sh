#!/bin/sh
# Writes the manual page of `pmusim` or of one subcommand from its --help (help2man).
# Usage: make-man.sh PMUSIM VERSION OUT.1 [SUBCOMMAND DESCRIPTION]
# A subcommand's page is titled pmusim-SUBCOMMAND, as git's are; the date comes from
# SOURCE_DATE_EPOCH when set, so the pages are reproducible.
set -eu
pmusim=$1 version=$2 out=$3 sub=${4:-} name=${5:-"cycle-exact models of hardware performance-counter units"}
export SC_COPYRIGHT_MESSAGE=DISABLE
: "${SOURCE_DATE_EPOCH:=1767225600}"  # 2026-01-01: a fixed date unless the packager sets one
export SOURCE_DATE_EPOCH
if [ -z "$sub" ]; then
  help2man --no-info --version-string="pmusim $version" --name="$name" \
    --include="$(dirname "$0")/man-see-also.h2m" "$pmusim" > "$out.tmp"
else
  title=$(echo "pmusim-$sub" | tr a-z A-Z)
  help2man --no-info --version-string="pmusim $version" --name="$name" "$pmusim $sub" |
    sed -e "s/^\.TH PMUSIM /.TH $title /" -e "s/^pmusim \\\\- /pmusim-$sub \\\\- /" > "$out.tmp"
fi
# help2man fills the indented example lines into one paragraph: keep them one command a line
# (no-fill from each .IP block of EXAMPLES to the next paragraph or section).
awk '
  /^\.SH / { if (nofill) print ".fi"; nofill = 0; examples = ($2 == "EXAMPLES") }
  /^\.(PP|TP|SS)/ && nofill { print ".fi"; nofill = 0 }
  { print }
  /^\.IP$/ && examples { print ".nf"; nofill = 1 }
  END { if (nofill) print ".fi" }
' "$out.tmp" > "$out.nf" && mv "$out.nf" "$out.tmp"
mv "$out.tmp" "$out"
