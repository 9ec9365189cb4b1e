# The mutation set (tests/mutations, docs/mutations.md): two deliberate model breaks, chosen by the
# date so that CI walks the whole set, each applied to this tree, built incrementally into this
# build folder, run against its named test (which must fail), reverted and rebuilt. RUN_SERIAL: no
# other test may see the mutant binary. About a minute per mutation on 2 cores (one object, a link).
pmusim_script_test("mutations: two model breaks chosen by date each fail their named test"
  tests/mutations/run.py --rotate 2 --in-place ${CMAKE_BINARY_DIR} TIMEOUT 1500 PROPERTIES RUN_SERIAL TRUE)

# Every patch of the set applies to this tree (seconds): a model edit that moves a patch's lines
# fails here the day it lands, not on the day the rotation above reaches that patch.
pmusim_script_test("mutations: every patch of the set applies to this tree" tests/mutations/run.py --check TIMEOUT 60)
