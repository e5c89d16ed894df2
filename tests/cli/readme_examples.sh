#!/usr/bin/env bash
# The README's policy examples are the code the tests compile: the block between "---- begin README example ----" and
# "---- end README example ----" of each tests/unit/test_readme_*.cpp must stand, line for line, in README.md.
# Usage: readme_examples.sh SOURCE_DIR
src=$1
passed=0
failed=0
for f in "$src"/tests/unit/test_readme_*.cpp; do
  if perl -0777 -e '
      open my $r, "<", $ARGV[0] or die; my $readme = <$r>;
      open my $t, "<", $ARGV[1] or die; my $test = <$t>;
      my ($block) = $test =~ m{// ---- begin README example ----\n(.*?)// ---- end README example ----}s or exit 2;
      exit(index($readme, $block) >= 0 ? 0 : 1);' "$src/README.md" "$f"; then
    passed=$((passed + 1))
  else
    echo "FAIL $(basename "$f"): its README example differs from README.md (or has no markers)"
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
