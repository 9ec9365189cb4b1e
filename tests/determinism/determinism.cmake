# The same inputs give byte-identical outputs: golden outputs of a representative run, normalized
# and diffed, and outputs written atomically (docs/reliability.md).
pmusim_script_test("determinism: golden outputs of a representative run, diffed, and atomic outputs"
  tests/determinism/check_determinism.py $<TARGET_FILE:pmusim> TIMEOUT 120)
