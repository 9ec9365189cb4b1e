# What-if tests (docs/whatif.md): scenario/sweep unit tests in the Catch2 binary,
# and end-to-end checks of simulate, sweep (with GNU parallel shards), plot and the studies.
target_sources(pmusim_unit_tests PRIVATE ${CMAKE_SOURCE_DIR}/tests/whatif/test_scenario.cpp)
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  foreach(check simulate measured sweep sweep_resume plot studies cmn_hotspot imc_nest_study multiplex compare linked mesh_flows linked_flows multiplex_cspmu)
    add_test(NAME "whatif: ${check}"
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/whatif/check_${check}.py $<TARGET_FILE:pmusim>
      WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties("whatif: ${check}" PROPERTIES ENVIRONMENT "SC_COPYRIGHT_MESSAGE=DISABLE" TIMEOUT 180)
  endforeach()
endif()
# A sweep on a real single-node Slurm started and stopped by the test (docs/whatif.md "Across
# machines: shards"). Slurm and munge are installed by scripts/install-deps.sh; missing, it fails.
if(Python3_FOUND)
  add_test(NAME "whatif: slurm sweep"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/whatif/check_slurm_sweep.py $<TARGET_FILE:pmusim>
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties("whatif: slurm sweep" PROPERTIES ENVIRONMENT "SC_COPYRIGHT_MESSAGE=DISABLE" TIMEOUT 180)
endif()
# POWER9 IMC ground truth and samples (docs/whatif.md "POWER9 IMC").
if(Python3_FOUND)
  add_test(NAME "whatif: imc"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/whatif/check_imc.py $<TARGET_FILE:pmusim>
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties("whatif: imc" PROPERTIES ENVIRONMENT "SC_COPYRIGHT_MESSAGE=DISABLE" TIMEOUT 120)
endif()
